import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { VirtualClock } from '../core/clock.js';
import { defineTool } from './define-tool.js';
import { createWriteLog, type WriteLogEntry } from './idempotency.js';
import { createToolPipeline, type ToolPipelineOptions } from './pipeline.js';
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

function memoryLog() {
  const entries: WriteLogEntry[] = [];
  const log = createWriteLog([], async (entry) => {
    entries.push(entry);
  });
  return { log, entries };
}

const pipeline = (options: Partial<ToolPipelineOptions> = {}) =>
  createToolPipeline({ tools, validate: true, ...options });

async function runOne(options: Partial<ToolPipelineOptions>, toolCall: ToolCall) {
  executions = [];
  const state = testRunState();
  const outcome = await pipeline(options).run(toolCall, state);
  return { ...outcome, executions, clock: state.clock as VirtualClock };
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
    const { log } = memoryLog();
    const { record, result, executions } = await runOne(
      {
        writes: log,
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
    expect(log.get('set_value:ORD1:set')?.output).toBe('{"stored":"ORD1"}');
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
      const { record, result } = await createToolPipeline({ tools: [tool], validate: true }).run(
        call(tool.name, { raw: 'x' }),
        testRunState(),
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
    const { record, result } = await createToolPipeline({
      tools: [picky],
      validate: true,
      hooks: { preToolUse: [() => ({ updatedInput: { raw: 'rewritten' } })] },
    }).run(call('get_picky', { raw: 'original' }), testRunState());
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
      const { record, result } = await createToolPipeline({ tools: [tool], validate: true }).run(
        call('get_value', { key: 7 }),
        testRunState(),
      );
      expect(record.decision).toBe('invalid');
      expect(result.content).toContain("Invalid arguments for get_value: 'key'");
      expect(result.content).not.toContain('42');
    }
  });
});

describe('a write whose idempotency key cannot be made', () => {
  it('fails closed when the key function throws (input null, no validation): nothing is logged and the write does not run', async () => {
    const { log, entries } = memoryLog();
    const { record, result, executions } = await runOne(
      { validate: false, writes: log },
      call('set_value', null),
    );
    expect(record.decision).toBe('failed');
    expect(result.is_error).toBe(true);
    expect(result.content).toContain('set_value was not executed');
    expect(result.content).toContain('idempotency key');
    expect(result.content).toContain("Cannot destructure property 'order_id'");
    expect(executions).toEqual([]);
    expect(entries).toEqual([]);
  });

  it('fails closed when the default key cannot hash input a hook rewrote (a BigInt)', async () => {
    const hashed = defineTool({ ...write, idempotencyKey: undefined as never });
    const { log, entries } = memoryLog();
    executions = [];
    const { record, result } = await createToolPipeline({
      tools: [hashed],
      writes: log,
      hooks: { preToolUse: [() => ({ updatedInput: { order_id: 1n } })] },
    }).run(writeCall, testRunState());
    expect(record.decision).toBe('failed');
    expect(result.content).toContain('BigInt');
    expect(executions).toEqual([]);
    expect(entries).toEqual([]);
  });

  it('fails closed when the key function returns something other than text', async () => {
    const numbered = defineTool({ ...write, idempotencyKey: () => 42 as never });
    const { log, entries } = memoryLog();
    executions = [];
    const { record, result } = await createToolPipeline({ tools: [numbered], writes: log }).run(
      writeCall,
      testRunState(),
    );
    expect(record.decision).toBe('failed');
    expect(result.content).toContain('returned a number, not a string');
    expect(executions).toEqual([]);
    expect(entries).toEqual([]);
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

  it('keeps a write it broke on in the write log, and tells the model the write was made', async () => {
    const { log } = memoryLog();
    const { record, result, executions } = await runOne(
      { writes: log, hooks: { postToolUse: [broken['returns nothing']] } },
      writeCall,
    );
    expect(executions).toEqual(['set_value']);
    expect(record.decision).toBe('allow');
    expect(result.is_error).toBe(true);
    expect(result.content).toContain('The write was made');
    expect(log.get('set_value:ORD1:set')?.output).toBe('{"stored":"ORD1"}');
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
    const { record, result } = await createToolPipeline({
      tools: [boom],
      hooks: { postToolUse: [broken.throws] },
    }).run(call('get_boom', {}), testRunState());
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
    const { record, result } = await createToolPipeline({ tools: [tool] }).run(
      readCall,
      testRunState(),
    );
    expect(record.decision).toBe('failed');
    expect(result.content).toContain(expected);
  });

  it('logs a write that returns one as made, so it is not run again', async () => {
    const tool = defineTool({ ...write, execute: throwingProxy });
    const { log } = memoryLog();
    const { record } = await createToolPipeline({ tools: [tool], writes: log }).run(
      writeCall,
      testRunState(),
    );
    expect(record.decision).toBe('failed');
    expect(log.get('set_value:ORD1:set')?.output).toContain('the write was made');
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
    const { record, result } = await pipeline({
      permissions: askPolicy,
      approver: async () => {
        throw new Error('stdin closed');
      },
    }).run(writeCall, testRunState({ mode: 'interactive' }));
    expect(record.decision).toBe('ask_denied');
    expect(result.content).toContain('stdin closed');
    expect(executions).toEqual([]);
  });

  it.each([['yes'], [1], [{}], [undefined]])(
    'approves only on true, not on an approver answer of %j',
    async (answer) => {
      executions = [];
      const { record } = await pipeline({
        permissions: askPolicy,
        approver: async () => answer as never,
      }).run(writeCall, testRunState({ mode: 'interactive' }));
      expect(record.decision).toBe('ask_denied');
      expect(executions).toEqual([]);
    },
  );
});

describe('a write log that fails', () => {
  function failingLog(failOn: 'intent' | 'outcome') {
    return createWriteLog([], async (entry) => {
      const kind = 'kind' in entry ? entry.kind : 'outcome';
      if (kind === failOn) throw new Error('disk full');
    });
  }

  it('stops the run before the write when its intent cannot be logged', async () => {
    const outcomes = await pipeline({ writes: failingLog('intent') }).runAll(
      [readCall, writeCall],
      testRunState(),
    );
    expect(outcomes.map((outcome) => outcome.record.decision)).toEqual(['allow', 'failed']);
    expect(outcomes[0]?.fatal).toBeUndefined();
    expect(outcomes[1]?.fatal).toContain('could not log the intent of set_value');
    expect(outcomes[1]?.fatal).toContain('disk full');
    expect(outcomes[1]?.fatal).toContain('it was not run');
  });

  it('keeps the write that ran in the record when its outcome cannot be logged', async () => {
    const log = failingLog('outcome');
    executions = [];
    const [outcome] = await pipeline({ writes: log }).runAll([writeCall], testRunState());
    expect(executions).toEqual(['set_value']);
    expect(outcome?.record.decision).toBe('allow');
    expect(outcome?.record.isError).toBe(false);
    expect(outcome?.fatal).toContain('set_value ran, but its outcome could not be logged');
    expect(outcome?.fatal).toContain('disk full');
    // Its intent stays: a resumed run answers outcome_unknown instead of writing twice.
    expect(log.unresolved('set_value:ORD1:set')).toBeDefined();
  });
});
