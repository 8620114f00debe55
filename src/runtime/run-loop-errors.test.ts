import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createVirtualClock } from '../core/clock.js';
import { ConfigError } from '../core/errors.js';
import { rejectionOf } from '../core/testing/rejection-of.js';
import type { ModelClient } from '../model-api/model-client.js';
import { createScriptedModel, textTurn, toolTurn } from '../simulator/scripted-model.js';
import { defineTool } from './define-tool.js';
import type { Harness } from './harness.js';
import { createMemoryJournalStore, type JournalStore } from './journal/journal-store.js';
import type { JournalRecord } from './journal/records.js';
import { resumeAgent } from './resume-agent.js';
import { runAgent } from './run-agent.js';
import { createFailingTrace } from './testing/failing-trace.js';
import { createMemoryTrace, type TraceSink, TraceWriteError } from './trace.js';

/**
 * The run as a whole when user code in the tool pipeline breaks: the model gets a failed
 * tool_result and the run goes on; only a failing run journal ends it, with that cause, and every
 * call of the batch stays in the trace.
 */

let writesExecuted = 0;
const read = defineTool({
  name: 'get_x',
  description: 'A read',
  effect: 'read',
  parameters: z.object({}),
  execute: () => 'x',
});
const write = defineTool({
  name: 'resubmit',
  description: 'A write keyed by order',
  effect: 'write',
  parameters: z.object({ order_id: z.string() }),
  idempotencyKey: ({ order_id }) => `${order_id}:resubmit`,
  execute: () => {
    writesExecuted += 1;
    return 'written';
  },
});

const batch = [
  { name: 'get_x', input: {} },
  { name: 'resubmit', input: { order_id: 'ORD1' } },
];

const probe: Harness = {
  name: 'probe',
  tools: [read, write],
  system: () => 'sys',
  limits: { maxSteps: 5 },
};

/** runAgent as run 'run-1' of the probe harness (with `harness` on top), on a fresh virtual clock. */
function start(options: {
  model: ModelClient;
  harness?: Partial<Harness>;
  trace?: TraceSink;
  journals?: JournalStore | undefined;
}) {
  return runAgent({
    harness: { ...probe, ...options.harness },
    model: options.model,
    modelId: 'm',
    prompt: 'p',
    clock: createVirtualClock({ start: 0 }),
    mode: 'unattended',
    runId: 'run-1',
    ...(options.trace && { trace: options.trace }),
    ...(options.journals && { journals: options.journals }),
  });
}

/** resumeAgent on run 'run-1' of the probe harness. */
const resume = (model: ModelClient, journals: JournalStore) =>
  resumeAgent({
    runId: 'run-1',
    journals,
    harness: probe,
    model,
    clock: createVirtualClock({ start: 0 }),
    trace: createMemoryTrace(),
  });

async function run(
  overrides: Partial<Harness>,
  options: { calls?: typeof batch; journals?: JournalStore; afterTools?: boolean } = {},
) {
  writesExecuted = 0;
  const model = createScriptedModel([
    toolTurn(options.calls ?? batch),
    ...(options.afterTools === false ? [] : [textTurn('final answer')]),
  ]);
  const trace = createMemoryTrace();
  const result = await start({
    model,
    harness: overrides,
    trace,
    journals: options.journals,
  });
  const toolResults = result.messages.flatMap((message) =>
    message.role === 'user' && Array.isArray(message.content) ? message.content : [],
  ) as Array<{ content: string; is_error?: boolean }>;
  const traced = trace.events.filter((event) => event.type === 'tool_call');
  return { result, toolResults, traced, model };
}

describe('runLoop with broken user code in the tool pipeline', () => {
  it('goes on when a PostToolUse hook returns nothing, and counts the write that ran', async () => {
    const { result, toolResults, traced } = await run({
      hooks: { postToolUse: [() => undefined as never] },
    });
    expect(result.status).toBe('done');
    expect(result.answer).toBe('final answer');
    expect(writesExecuted).toBe(1);
    expect(result.toolCalls.map((record) => record.decision)).toEqual(['allow', 'allow']);
    expect(result.stats.toolCalls).toBe(2);
    expect(result.stats.toolErrors).toBe(2);
    expect(result.stats.unconfirmedWrites).toBe(1);
    expect(traced).toHaveLength(2);
    expect(toolResults[1]?.content).toContain('PostToolUse hook 1');
  });

  it('goes on when a PreToolUse hook throws: neither call runs, both are answered', async () => {
    const { result, toolResults } = await run({
      hooks: {
        preToolUse: [
          () => {
            throw new Error('pre hook bug');
          },
        ],
      },
    });
    expect(result.status).toBe('done');
    expect(writesExecuted).toBe(0);
    expect(result.toolCalls.map((record) => record.decision)).toEqual(['hook_deny', 'hook_deny']);
    expect(toolResults.every((block) => block.is_error === true)).toBe(true);
    expect(toolResults[0]?.content).toContain('pre hook bug');
  });

  it('goes on when a PreToolUse hook never settles: the calls are refused at its deadline', async () => {
    const { result, toolResults } = await run({
      hooks: { preToolUse: [() => new Promise(() => {})], timeoutMs: 20 },
    });
    expect(result.status).toBe('done');
    expect(writesExecuted).toBe(0);
    expect(result.toolCalls.map((record) => record.decision)).toEqual(['hook_deny', 'hook_deny']);
    expect(toolResults[1]?.content).toContain('did not answer within 20 ms');
  });

  it('refuses a hook deadline that is not a number of milliseconds before the run starts', async () => {
    const journals = createMemoryJournalStore();
    const model = createScriptedModel([]);
    const error = await rejectionOf(
      start({
        model,
        harness: { hooks: { postToolUse: [(_call, output) => output], timeoutMs: -1 } },
        journals,
      }),
      ConfigError,
    );
    expect(error.message).toContain('hooks.timeoutMs -1 is not a whole number of milliseconds');
    expect(model.requests).toHaveLength(0);
    expect(await journals.list()).toEqual([]);
  });

  it('does not run a write that a hook answers with a malformed decision', async () => {
    const { result } = await run({
      hooks: { preToolUse: [() => ({ decision: 'block' }) as never] },
    });
    expect(result.status).toBe('done');
    expect(writesExecuted).toBe(0);
    expect(result.stats.unconfirmedWrites).toBe(0);
  });

  it('answers a write called with input null (no validation) instead of ending the run', async () => {
    const { result, toolResults } = await run(
      {},
      {
        calls: [{ name: 'resubmit', input: null }] as never,
        journals: createMemoryJournalStore(),
      },
    );
    expect(result.status).toBe('done');
    expect(writesExecuted).toBe(0);
    expect(result.toolCalls.map((record) => record.decision)).toEqual(['failed']);
    expect(toolResults[0]?.content).toContain('idempotency key');
    expect(result.writes).toBeUndefined();
  });
});

describe('runLoop when the run journal fails', () => {
  /** Journals in memory whose file refuses the records `fails` matches, as a full disk does. */
  function failingStore(fails: (record: JournalRecord) => boolean): JournalStore {
    const store = createMemoryJournalStore();
    return {
      ...store,
      async create(runId, first) {
        const sink = await store.create(runId, first);
        return {
          source: sink.source,
          async append(record) {
            if (fails(record)) throw new Error('disk full');
            return sink.append(record);
          },
        };
      },
    };
  }
  const writeResult = (record: JournalRecord) => record.type === 'result' && record.index === 1;
  const intent = (record: JournalRecord) => record.type === 'intent';

  it('ends the run naming the result it could not record; a resumed run does not make the write again', async () => {
    const journals = failingStore(writeResult);
    const { result, traced } = await run({}, { journals, afterTools: false });
    expect(result.status).toBe('error');
    expect(result.detail).toContain('could not record the result of resubmit');
    expect(result.detail).toContain('disk full');
    expect(writesExecuted).toBe(1);
    // Both calls ran, and the trace says so.
    expect(traced.map((event) => [event.tool, event.decision])).toEqual([
      ['get_x', 'allow'],
      ['resubmit', 'allow'],
    ]);
    // Its outcome is not recorded: a human decides, the write is never run a second time.
    expect(result.writes?.map((write) => [write.key, write.made])).toEqual([
      ['resubmit:ORD1:resubmit', 'intended'],
    ]);
    const resumed = await resume(createScriptedModel([textTurn('final answer')]), journals);
    expect(resumed.status).toBe('done');
    expect(writesExecuted).toBe(1);
    expect(resumed.toolCalls.map((record) => [record.tool, record.decision])).toEqual([
      ['get_x', 'allow'],
      ['resubmit', 'outcome_unknown'],
    ]);
    expect(resumed.writes?.map((write) => [write.key, write.made])).toEqual([
      ['resubmit:ORD1:resubmit', 'unknown'],
    ]);
  });

  it('keeps the calls of the batch that ran in the history and the stats of the run it ends', async () => {
    const { result } = await run({}, { journals: failingStore(writeResult), afterTools: false });
    expect(result.status).toBe('error');
    expect(writesExecuted).toBe(1);
    expect(result.toolCalls.map((record) => [record.tool, record.decision])).toEqual([
      ['get_x', 'allow'],
      ['resubmit', 'allow'],
    ]);
    expect(result.stats.toolCalls).toBe(2);
    // The write ran without a human's yes.
    expect(result.stats.unconfirmedWrites).toBe(1);
  });

  it('ends the run before the write when its intent cannot be recorded', async () => {
    const journals = failingStore(intent);
    const { result, traced } = await run({}, { journals, afterTools: false });
    expect(result.status).toBe('error');
    expect(result.detail).toContain('could not record the intent of resubmit');
    expect(result.detail).toContain('it was not run');
    expect(writesExecuted).toBe(0);
    expect(traced.map((event) => event.decision)).toEqual(['allow', 'failed']);
    // Nothing of the write was recorded: a resumed run makes it, once.
    const resumed = await resume(createScriptedModel([textTurn('final answer')]), journals);
    expect(resumed.status).toBe('done');
    expect(writesExecuted).toBe(1);
    expect(resumed.toolCalls.map((record) => [record.tool, record.decision])).toEqual([
      ['get_x', 'allow'],
      ['resubmit', 'allow'],
    ]);
  });
});

describe('runLoop when the trace cannot be written', () => {
  const failures = [['throws'], ['rejects'], ['rejects later']] as const;

  it.each(failures)(
    'ends the run with status error when a tool_call event %s, keeping the step for resume',
    async (how) => {
      writesExecuted = 0;
      const journals = createMemoryJournalStore();
      const model = createScriptedModel([toolTurn(batch)]);
      const trace = createFailingTrace('tool_call', how);
      const result = await start({ model, trace, journals });
      model.assertDone();
      expect(result.status).toBe('error');
      expect(result.detail).toBe(
        'the trace sink failed at the tool_call event (step 1): disk full. The run stopped before its next step; its journal keeps what it did: fix the trace (free disk space, or the sink), then resume run run-1',
      );
      expect(writesExecuted).toBe(1);
      expect(trace.events.map((event) => event.type)).toEqual(['run_start', 'model_call']);
      // The completed step is not done again: no second model call for it, no second write.
      const resumedModel = createScriptedModel([textTurn('final answer')]);
      const resumed = await resume(resumedModel, journals);
      resumedModel.assertDone();
      expect(resumed.status).toBe('done');
      expect(writesExecuted).toBe(1);
      expect(resumed.toolCalls.map((record) => record.tool)).toEqual(['get_x', 'resubmit']);
    },
  );

  it.each(failures)(
    'runs no tool after a model_call event %s; a resumed run runs them once, without asking again',
    async (how) => {
      writesExecuted = 0;
      const journals = createMemoryJournalStore();
      const result = await start({
        model: createScriptedModel([toolTurn(batch)]),
        trace: createFailingTrace('model_call', how),
        journals,
      });
      expect(result.status).toBe('error');
      expect(result.detail).toContain('at the model_call event (step 1): disk full');
      expect(writesExecuted).toBe(0);
      expect(result.toolCalls).toEqual([]);
      // The model's answer was journaled before the trace stopped the run: the resumed run runs
      // its calls without asking for step 1 again.
      const resumedModel = createScriptedModel([textTurn('final answer')]);
      const resumed = await resume(resumedModel, journals);
      resumedModel.assertDone();
      expect(resumed.status).toBe('done');
      expect(resumed.toolCalls.map((record) => [record.step, record.tool])).toEqual([
        [1, 'get_x'],
        [1, 'resubmit'],
      ]);
      expect(writesExecuted).toBe(1);
    },
  );

  it.each(failures)(
    'reports a run_end that %s as an error while the finished run stays recorded',
    async (how) => {
      const journals = createMemoryJournalStore();
      const result = await start({
        model: createScriptedModel([textTurn('final answer')]),
        trace: createFailingTrace('run_end', how),
        journals,
      });
      expect(result.status).toBe('error');
      expect(result.answer).toBe('final answer');
      expect(result.detail).toContain(
        'at the run_end event: disk full. The run had ended with status done',
      );
      const resumed = await resume(createScriptedModel([]), journals);
      expect(resumed.status).toBe('done');
      expect(resumed.answer).toBe('final answer');
    },
  );

  it('tells a run without a journal store to run again', async () => {
    writesExecuted = 0;
    const result = await start({
      model: createScriptedModel([toolTurn(batch)]),
      trace: createFailingTrace('tool_call'),
    });
    expect(result.status).toBe('error');
    expect(result.detail).toMatch(
      /disk full\. The run stopped before its next step: fix the trace \(free disk space, or the sink\), then run it again$/,
    );
  });

  it.each(failures)(
    'refuses to start a run whose run_start event %s: no journal, no model call',
    async (how) => {
      const journals = createMemoryJournalStore();
      const model = createScriptedModel([]);
      const error = await rejectionOf(
        start({ model, trace: createFailingTrace('run_start', how), journals }),
        TraceWriteError,
      );
      expect(error.code).toBe('trace_write');
      expect(error.message).toBe(
        'the trace sink failed at the run_start event: disk full. Nothing was done: fix the trace (free disk space, or the sink), then start the run again',
      );
      expect(model.requests).toHaveLength(0);
      expect(await journals.list()).toEqual([]);
    },
  );
});

describe('an async trace sink', () => {
  it('gets one write at a time, in order, each after the previous one settled', async () => {
    const written: string[] = [];
    let inFlight = 0;
    let most = 0;
    const sink: TraceSink = {
      write(event) {
        inFlight += 1;
        most = Math.max(most, inFlight);
        return new Promise<void>((resolve) =>
          setTimeout(() => {
            written.push(event.type);
            inFlight -= 1;
            resolve();
          }, 1),
        ) as never;
      },
    };
    const result = await start({
      model: createScriptedModel([toolTurn(batch), textTurn('final answer')]),
      trace: sink,
    });
    expect(result.status).toBe('done');
    expect(most).toBe(1);
    expect(written).toEqual([
      'run_start',
      'model_call',
      'tool_call',
      'tool_call',
      'model_call',
      'run_end',
    ]);
  });
});
