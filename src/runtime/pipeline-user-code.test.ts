import { readFile } from 'node:fs/promises';
import { assert, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { VirtualClock } from '../core/clock.js';
import { defineTool } from './define-tool.js';
import type { JournalRecord } from './journal/records.js';
import { createRunJournal } from './journal/run-journal.js';
import { foldJournal, startView } from './journal/run-view.js';
import { createToolPipeline, type ToolOutcome, type ToolPipelineOptions } from './pipeline.js';
import { durablePipeline, runStarted } from './testing/durable-pipeline.js';
import { testRunState } from './testing/run-state.js';
import type { PermissionDecision, PreToolUseHook, ToolCall } from './types.js';

/**
 * User code around a tool call (hooks, schemas, idempotency keys, permission policies,
 * approvers, the tool's return value) is untrusted: when it throws or answers something it may
 * not, that call gets a failed tool_result naming the culprit and the run goes on.
 */

let executions: string[] = [];
const read = defineTool({
  name: 'get_value',
  description: 'A read',
  effect: 'read',
  parameters: z.object({ key: z.string() }),
  execute: ({ key }) => {
    executions.push('get_value');
    return { key, card: '6222020200112233445' };
  },
});
const write = defineTool({
  name: 'set_value',
  description: 'A write with a business key',
  effect: 'write',
  parameters: z.object({ order_id: z.string() }),
  idempotencyKey: ({ order_id }) => `${order_id}:set`,
  execute: ({ order_id }) => {
    executions.push('set_value');
    return { stored: order_id };
  },
});
const tools = [read, write];

const call = (name: string, input: unknown, id = `id_${name}`): ToolCall => ({ id, name, input });
const readCall = call('get_value', { key: 'a' });
const writeCall = call('set_value', { order_id: 'ORD1' });

/** The outcome of a call that must have ended with a result. */
function resulted(outcome: ToolOutcome | undefined) {
  assert(outcome?.kind === 'result', `the call ended '${outcome?.kind}', not with a result`);
  return outcome;
}

const pipeline = (options: Partial<ToolPipelineOptions> = {}) =>
  createToolPipeline({ tools, validate: true, ...options });

async function runOne(options: Partial<ToolPipelineOptions>, toolCall: ToolCall) {
  executions = [];
  const state = testRunState();
  const outcome = resulted(await pipeline(options).run(toolCall, state, 0));
  return { ...outcome, executions, clock: state.clock as VirtualClock };
}

/**
 * Runs `toolCall` in a durable run, then the same call again in the next step: `again` is the
 * second call's outcome, `executions` what both ran.
 */
async function durableTwice(options: Partial<ToolPipelineOptions>, toolCall: ToolCall) {
  executions = [];
  const durable = await durablePipeline({ tools, validate: true, ...options });
  const outcome = resulted(await durable.call(toolCall));
  const again = resulted(await durable.call({ ...toolCall, id: 'id_again' }));
  return { ...outcome, executions, again, journal: durable.journal };
}

describe('a PreToolUse hook that is broken', () => {
  function namedHook(): PreToolUseHook {
    return function guardWrites() {
      throw new Error('pre hook bug');
    };
  }

  it('refuses the call when it throws, naming the hook and the error; the write does not run', async () => {
    const { record, result, executions } = await runOne(
      { hooks: { preToolUse: [() => undefined, namedHook()] } },
      writeCall,
    );
    expect(record.decision).toBe('hook_deny');
    expect(result.is_error).toBe(true);
    expect(result.content).toContain('PreToolUse hook 2 (guardWrites)');
    expect(result.content).toContain('pre hook bug');
    expect(result.content).toContain('set_value was not executed');
    expect(executions).toEqual([]);
  });

  it.each([
    ['an unknown decision', { decision: 'block', reason: 'no writes' }, "decision 'block'"],
    ['decision allow', { decision: 'allow' }, "decision 'allow'"],
    ['a string', 'deny', 'a string'],
    ['a number', 1, 'a number'],
    ['a non-text reason', { decision: 'deny', reason: { text: 'x' } }, 'reason'],
    ['updatedInput null', { updatedInput: null }, 'updatedInput'],
    ['updatedInput an array', { updatedInput: ['ORD1'] }, 'updatedInput'],
    ['updatedInput a string', { updatedInput: 'ORD1' }, 'updatedInput'],
  ])(
    'refuses the call when it returns %s, listing the shapes it may return',
    async (_what, verdict, expected) => {
      for (const validate of [true, false]) {
        const { record, result, executions } = await runOne(
          { validate, hooks: { preToolUse: [() => verdict as never] } },
          writeCall,
        );
        expect(record.decision).toBe('hook_deny');
        expect(result.is_error).toBe(true);
        expect(result.content).toContain('PreToolUse hook 1');
        expect(result.content).toContain(expected);
        expect(result.content).toContain("{ decision: 'deny'");
        expect(executions).toEqual([]);
      }
    },
  );

  it('refuses the call when reading its answer throws (a getter, a Proxy)', async () => {
    const getter = {
      get decision() {
        throw new Error('getter bug');
      },
    };
    const proxy = new Proxy(
      {},
      {
        get() {
          throw new Error('proxy bug');
        },
      },
    );
    for (const verdict of [getter, proxy]) {
      const { record, result, executions } = await runOne(
        { hooks: { preToolUse: [() => verdict as never] } },
        writeCall,
      );
      expect(record.decision).toBe('hook_deny');
      expect(result.content).toMatch(/getter bug|proxy bug/);
      expect(executions).toEqual([]);
    }
  });

  it('still lets a well-formed answer through: nothing, null, {}, a deny, a rewrite', async () => {
    for (const verdict of [undefined, null, {}, { reason: 'noted' }]) {
      const { record } = await runOne(
        { hooks: { preToolUse: [() => verdict as never] } },
        readCall,
      );
      expect(record.decision).toBe('allow');
    }
    const denied = await runOne(
      { hooks: { preToolUse: [() => ({ decision: 'deny', reason: 'not today' })] } },
      readCall,
    );
    expect(denied.result.content).toBe('Blocked: not today');
    const rewritten = await runOne(
      { validate: false, hooks: { preToolUse: [() => ({ updatedInput: { key: 'b' } })] } },
      readCall,
    );
    expect(rewritten.result.content).toContain('"key":"b"');
  });
});

describe('a hook that does not settle by its deadline', () => {
  it('refuses the call when a PreToolUse hook never settles, naming the hook, the deadline and the fix', async () => {
    const { record, result, executions, clock } = await runOne(
      {
        hooks: {
          preToolUse: [
            () => undefined,
            function guardWrites() {
              return new Promise(() => {});
            },
          ],
          timeoutMs: 20,
        },
      },
      writeCall,
    );
    expect(record.decision).toBe('hook_deny');
    expect(result.is_error).toBe(true);
    expect(result.content).toContain(
      'set_value was not executed: PreToolUse hook 2 (guardWrites) did not answer within 20 ms',
    );
    expect(result.content).toContain('raise hooks.timeoutMs');
    expect(executions).toEqual([]);
    // Real time ran out while the hook held the virtual clock: the run's clock is at the deadline.
    expect(clock.now()).toBe(20);
  });

  it('times a hook out at 60 s by default, in virtual time, and ends its wait on run.clock', async () => {
    const { record, result, executions, clock } = await runOne(
      {
        hooks: {
          preToolUse: [
            async (_call, run) => {
              await run.clock.sleep(120_000);
              return undefined;
            },
          ],
        },
      },
      readCall,
    );
    expect(record.decision).toBe('hook_deny');
    expect(record.ms).toBe(60_000);
    expect(result.content).toContain('within 60000 ms');
    expect(executions).toEqual([]);
    // The abandoned hook's sleep does not move the run's time later.
    expect(clock.pending()).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(clock.now()).toBe(60_000);
  });

  it('lets a hook finish its real I/O under a virtual clock instead of timing it out', async () => {
    const reads: string[] = [];
    const { record, clock } = await runOne(
      {
        hooks: {
          preToolUse: [
            async () => {
              for (let read = 0; read < 20; read += 1)
                reads.push(await readFile(new URL(import.meta.url), 'utf8'));
              return undefined;
            },
          ],
          // Far off in real time (a loaded machine cannot reach it), and still due at once in
          // virtual time if the clock moved while the hook read.
          timeoutMs: 60_000,
        },
      },
      readCall,
    );
    expect(record.decision).toBe('allow');
    expect(reads).toHaveLength(20);
    expect(clock.now()).toBe(0);
  });

  it('hides the result when a PostToolUse hook does not settle; the write stays made', async () => {
    const { record, result, executions, again } = await durableTwice(
      {
        hooks: {
          postToolUse: [
            (_call, output) => output,
            function mask() {
              return new Promise<string>(() => {});
            },
          ],
          timeoutMs: 20,
        },
      },
      writeCall,
    );
    expect(executions).toEqual(['set_value']);
    expect(record.decision).toBe('allow');
    expect(result.is_error).toBe(true);
    expect(result.content).toContain(
      'set_value ran, but PostToolUse hook 2 (mask) did not answer within 20 ms',
    );
    expect(result.content).toContain('The write was made');
    expect(result.content).not.toContain('ORD1');
    // Made: the same write is answered from the journal, never run again.
    expect(again.record.replayed).toBe(true);
    expect(again.result.content).toContain('The write was made');
    expect(executions).toEqual(['set_value']);
  });

  it.each([[0], [-5], [1.5], [Number.NaN], [Number.POSITIVE_INFINITY], [2 ** 31], ['100']])(
    'refuses hooks.timeoutMs %j when the pipeline is made',
    (timeoutMs) => {
      expect(() => pipeline({ hooks: { preToolUse: [], timeoutMs: timeoutMs as number } })).toThrow(
        /^hooks\.timeoutMs .* is not a whole number of milliseconds from 1 to 2147483647; leave it out for the default \(60000\)$/,
      );
    },
  );
});

describe('a tool schema or describeInvalid that throws', () => {
  const throwingTransform = defineTool({
    name: 'get_parsed',
    description: 'Its schema throws instead of reporting an issue',
    effect: 'read',
    parameters: z.object({
      raw: z.string().transform((): string => {
        throw new Error('transform bug');
      }),
    }),
    execute: () => 'never',
  });
  const throwingRefine = defineTool({
    name: 'get_refined',
    description: 'Its refinement throws',
    effect: 'read',
    parameters: z.object({
      raw: z.string().refine((value) => (value as never as { a: { b: 1 } }).a.b),
    }),
    execute: () => 'never',
  });

  it.each([
    ['a transform', throwingTransform, 'transform bug'],
    ['a refinement', throwingRefine, "Cannot read properties of undefined (reading 'b')"],
  ])(
    'fails the call when %s throws, naming the tool and the error',
    async (_what, tool, expected) => {
      executions = [];
      const { record, result } = resulted(
        await createToolPipeline({ tools: [tool], validate: true }).run(
          call(tool.name, { raw: 'x' }),
          testRunState(),
          0,
        ),
      );
      expect(record.decision).toBe('failed');
      expect(result.is_error).toBe(true);
      expect(result.content).toContain(`${tool.name} was not executed`);
      expect(result.content).toContain(expected);
    },
  );

  it('fails the call when the schema throws on input rewritten by a PreToolUse hook', async () => {
    const picky = defineTool({
      name: 'get_picky',
      description: 'Its schema throws on one value',
      effect: 'read',
      parameters: z.object({
        raw: z.string().transform((value) => {
          if (value === 'rewritten') throw new Error('transform bug');
          return value;
        }),
      }),
      execute: () => 'never',
    });
    const { record, result } = resulted(
      await createToolPipeline({
        tools: [picky],
        validate: true,
        hooks: { preToolUse: [() => ({ updatedInput: { raw: 'rewritten' } })] },
      }).run(call('get_picky', { raw: 'original' }), testRunState(), 0),
    );
    expect(record.decision).toBe('failed');
    expect(result.content).toContain('transform bug');
  });

  it('falls back to the generic description when describeInvalid throws or returns no text', async () => {
    for (const describeInvalid of [
      () => {
        throw new Error('describeInvalid bug');
      },
      () => 42 as never,
    ]) {
      const tool = defineTool({ ...read, describeInvalid });
      const { record, result } = resulted(
        await createToolPipeline({ tools: [tool], validate: true }).run(
          call('get_value', { key: 7 }),
          testRunState(),
          0,
        ),
      );
      expect(record.decision).toBe('invalid');
      expect(result.content).toContain("Invalid arguments for get_value: 'key'");
      expect(result.content).not.toContain('42');
    }
  });
});

describe('a write whose idempotency key cannot be made', () => {
  it('fails closed when the key function throws (input null, no validation): nothing is logged and the write does not run', async () => {
    executions = [];
    const durable = await durablePipeline({ tools, validate: false });
    const { record, result } = resulted(await durable.call(call('set_value', null)));
    expect(record.decision).toBe('failed');
    expect(result.is_error).toBe(true);
    expect(result.content).toContain('set_value was not executed');
    expect(result.content).toContain('idempotency key');
    expect(result.content).toContain("Cannot destructure property 'order_id'");
    expect(executions).toEqual([]);
    // No intent, no write: the journal holds the call's failed result only.
    expect(durable.journal.view.writes.size).toBe(0);
  });

  it('fails closed when the default key cannot hash input a hook rewrote (a BigInt)', async () => {
    const hashed = defineTool({ ...write, idempotencyKey: undefined as never });
    executions = [];
    const durable = await durablePipeline({
      tools: [hashed],
      hooks: { preToolUse: [() => ({ updatedInput: { order_id: 1n } })] },
    });
    const { record, result } = resulted(await durable.call(writeCall));
    expect(record.decision).toBe('failed');
    expect(result.content).toContain('BigInt');
    expect(executions).toEqual([]);
    expect(durable.journal.view.writes.size).toBe(0);
  });

  it('fails closed when the key function returns something other than text', async () => {
    const numbered = defineTool({ ...write, idempotencyKey: () => 42 as never });
    executions = [];
    const durable = await durablePipeline({ tools: [numbered] });
    const { record, result } = resulted(await durable.call(writeCall));
    expect(record.decision).toBe('failed');
    expect(result.content).toContain('returned a number, not a string');
    expect(executions).toEqual([]);
    expect(durable.journal.view.writes.size).toBe(0);
  });
});

describe('a PostToolUse hook that is broken', () => {
  const broken = {
    throws: () => {
      throw new Error('mask bug 6222020200112233445');
    },
    'returns nothing': () => undefined as never,
    'returns a number': () => 7 as never,
  };

  it.each(Object.entries(broken))(
    'hides the result when it %s, naming the hook',
    async (_what, hook) => {
      for (const truncateAt of [undefined, 100]) {
        const { record, result, executions } = await runOne(
          {
            ...(truncateAt !== undefined && { truncateAt }),
            hooks: { postToolUse: [(_call, output) => output, hook] },
          },
          readCall,
        );
        expect(record.decision).toBe('allow');
        expect(record.isError).toBe(true);
        expect(result.is_error).toBe(true);
        expect(result.content).toContain('get_value ran, but PostToolUse hook 2');
        // The hook may have been the one that masks: neither the output nor its error text leaks.
        expect(result.content).not.toContain('6222020200112233445');
        expect(executions).toEqual(['get_value']);
      }
    },
  );

  it('keeps a write it broke on as made in the journal, and tells the model the write was made', async () => {
    const { record, result, executions, again, journal } = await durableTwice(
      { hooks: { postToolUse: [broken['returns nothing']] } },
      writeCall,
    );
    expect(record.decision).toBe('allow');
    expect(result.is_error).toBe(true);
    expect(result.content).toContain('The write was made');
    expect(journal.view.writes.get('set_value:ORD1:set')?.made).toBe('yes');
    // The same write again is answered from the journal: it ran once.
    expect(again.record.replayed).toBe(true);
    expect(executions).toEqual(['set_value']);
  });

  it('hides the failure text of a tool that threw, and the call stays failed', async () => {
    const boom = defineTool({
      name: 'get_boom',
      description: 'Throws',
      effect: 'read',
      parameters: z.object({}),
      execute: () => {
        throw new Error('card 6222020200112233445 declined');
      },
    });
    const { record, result } = resulted(
      await createToolPipeline({
        tools: [boom],
        hooks: { postToolUse: [broken.throws] },
      }).run(call('get_boom', {}), testRunState(), 0),
    );
    expect(record.decision).toBe('failed');
    expect(result.content).toContain('get_boom failed, and PostToolUse hook 1');
    expect(result.content).not.toContain('6222020200112233445');
  });
});

describe('a tool result that cannot be read', () => {
  const throwingGetter = () => ({
    get total() {
      throw new Error('getter boom');
    },
  });
  const throwingProxy = () =>
    new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('ownKeys boom');
        },
      },
    );

  it.each([
    ['a throwing getter', throwingGetter, 'getter boom'],
    ['a Proxy whose ownKeys throws', throwingProxy, 'ownKeys boom'],
  ])('fails a read that returns %s', async (_what, value, expected) => {
    const tool = defineTool({ ...read, execute: value });
    const { record, result } = resulted(
      await createToolPipeline({ tools: [tool] }).run(readCall, testRunState(), 0),
    );
    expect(record.decision).toBe('failed');
    expect(result.content).toContain(expected);
  });

  it('journals a write that returns one as made, so it is not run again', async () => {
    let calls = 0;
    const tool = defineTool({
      ...write,
      execute: () => {
        calls += 1;
        return throwingProxy();
      },
    });
    const durable = await durablePipeline({ tools: [tool] });
    const { record } = resulted(await durable.call(writeCall));
    expect(record.decision).toBe('failed');
    expect(durable.journal.view.writes.get('set_value:ORD1:set')?.made).toBe('yes');
    const again = resulted(await durable.call({ ...writeCall, id: 'id_again' }));
    expect(again.record.replayed).toBe(true);
    expect(calls).toBe(1);
  });
});

describe('a permission policy or approver that is broken', () => {
  const askPolicy = {
    decide: (): PermissionDecision => ({ effect: 'ask', rule: undefined, reason: 'a write' }),
  };

  it('denies the call when the policy throws or answers an unknown effect', async () => {
    const policies = [
      {
        decide: (): PermissionDecision => {
          throw new Error('policy bug');
        },
      },
      { decide: () => ({ effect: 'maybe', rule: undefined, reason: 'x' }) as never },
      { decide: () => undefined as never },
    ];
    for (const permissions of policies) {
      const { record, result, executions } = await runOne({ permissions }, writeCall);
      expect(record.decision).toBe('deny');
      expect(result.content).toContain('permission');
      expect(executions).toEqual([]);
    }
  });

  it('refuses an ask when the approver throws, naming the error', async () => {
    executions = [];
    const { record, result } = resulted(
      await pipeline({
        permissions: askPolicy,
        approver: async () => {
          throw new Error('stdin closed');
        },
      }).run(writeCall, testRunState({ mode: 'interactive' }), 0),
    );
    expect(record.decision).toBe('ask_denied');
    expect(result.content).toContain('stdin closed');
    expect(executions).toEqual([]);
  });

  it.each([['yes'], [1], [{}], [undefined]])(
    'approves only on true, not on an approver answer of %j',
    async (answer) => {
      executions = [];
      const { record } = resulted(
        await pipeline({
          permissions: askPolicy,
          approver: async () => answer as never,
        }).run(writeCall, testRunState({ mode: 'interactive' }), 0),
      );
      expect(record.decision).toBe('ask_denied');
      expect(executions).toEqual([]);
    },
  );
});

describe('a run journal that fails', () => {
  /** A durable journal whose step 1 holds `turn`; its file refuses the records `fails` matches, as a full disk does. */
  async function failingJournal(turn: ToolCall[], fails: (record: JournalRecord) => boolean) {
    const records: JournalRecord[] = [];
    const view = startView(runStarted({ runId: 'test-run', mode: 'unattended' }));
    records.push(view.started);
    const journal = createRunJournal(view, {
      now: () => 0,
      sink: {
        source: 'test.jsonl',
        async append(record) {
          if (fails(record)) throw new Error('disk full');
          records.push(record);
        },
      },
    });
    await journal.append({
      type: 'model_answered',
      step: 1,
      content: turn.map((each) => ({ type: 'tool_use', ...each })),
      usage: null,
      ms: 0,
      stopReason: 'tool_use',
    });
    return { journal, records };
  }

  it('stops the run before the write when its intent cannot be journaled', async () => {
    executions = [];
    const turn = [readCall, writeCall];
    const { journal } = await failingJournal(turn, (record) => record.type === 'intent');
    const outcomes = await pipeline({ journal }).runAll(turn, [0, 1], testRunState());
    const [, outcome] = outcomes;
    // The read in parallel ran (whether its result got in before the disk filled is timing).
    expect(executions).toEqual(['get_value']);
    const { record, fatal } = resulted(outcome);
    expect(record.decision).toBe('failed');
    expect(fatal).toContain('could not record the intent of set_value');
    expect(fatal).toContain('disk full');
    expect(fatal).toContain('it was not run');
  });

  it('keeps the write that ran in the record when its result cannot be journaled, and a resumed run does not run it again', async () => {
    executions = [];
    const { journal, records } = await failingJournal(
      [writeCall],
      (record) => record.type === 'result',
    );
    const [outcome] = await pipeline({ journal }).runAll([writeCall], [0], testRunState());
    expect(executions).toEqual(['set_value']);
    const { record, fatal } = resulted(outcome);
    expect(record.decision).toBe('allow');
    expect(record.isError).toBe(false);
    expect(fatal).toContain('could not record the result of set_value');
    expect(fatal).toContain('disk full');
    // Its intent stays: the journal read back answers the call outcome_unknown, not a second write.
    const folded = foldJournal(records);
    assert('view' in folded);
    const resumed = createRunJournal(folded.view, {
      now: () => 0,
      sink: { source: 'resumed.jsonl', append: async () => undefined },
    });
    const again = resulted(await pipeline({ journal: resumed }).run(writeCall, testRunState(), 0));
    expect(again.record.decision).toBe('outcome_unknown');
    expect(executions).toEqual(['set_value']);
  });
});
