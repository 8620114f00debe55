import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createVirtualClock } from '../core/clock.js';
import { redactValue } from '../core/redact.js';
import { createMemoryCheckpointStore } from './checkpoint-store.js';
import { defineTool } from './define-tool.js';
import {
  createKeyedQueue,
  createWriteLog,
  idempotencyKeyFor,
  type WriteLogEntry,
  type WriteRecord,
} from './idempotency.js';
import { createToolPipeline } from './pipeline.js';
import { resumeAgent } from './resume-agent.js';
import { runAgent } from './run-agent.js';
import { createScriptedModel, textTurn, toolTurn } from './scripted-model.js';
import { testRunState } from './testing/run-state.js';
import type { ToolDefinition } from './types.js';

const run = testRunState({
  runId: 'run-7',
  step: 2,
  mode: 'interactive',
  clock: createVirtualClock({ start: Date.parse('2026-10-01T09:00:00Z') }),
});

const executed: unknown[] = [];
const contexts: Array<string | undefined> = [];
const pay = defineTool({
  name: 'pay',
  description: 'Pay an invoice',
  effect: 'write',
  parameters: z.object({ invoice: z.string(), note: z.string() }),
  idempotencyKey: ({ invoice }) => `${invoice}:pay`,
  execute: (args, { idempotencyKey }) => {
    executed.push(args);
    contexts.push(idempotencyKey);
    return { paid: args.invoice };
  },
});
const note = defineTool({
  name: 'note',
  description: 'Write a note',
  effect: 'write',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

describe('idempotencyKeyFor', () => {
  it('uses the business key when the tool declares one', () => {
    expect(idempotencyKeyFor(pay as ToolDefinition, { invoice: 'INV-1', note: 'a' }, run)).toBe(
      'pay:INV-1:pay',
    );
  });

  it('hashes the canonical arguments otherwise: key order does not matter, values do', () => {
    const tool = note as ToolDefinition;
    const key = idempotencyKeyFor(tool, { text: 'x' }, run);
    expect(key).toMatch(/^note:[0-9a-f]{16}$/);
    expect(idempotencyKeyFor(tool, { text: 'y' }, run)).not.toBe(key);
  });

  it('hashes a business key holding a card number, so the redacted write log still matches it', () => {
    const byCard = pay as ToolDefinition;
    const args = { invoice: '6222020200112233445', note: 'a' };
    const key = idempotencyKeyFor(byCard, args, run);
    expect(key).toMatch(/^pay:[0-9a-f]{16}$/);
    expect(redactValue({ key })).toEqual({ key });
    expect(idempotencyKeyFor(byCard, { invoice: '6222020200112233452', note: 'a' }, run)).not.toBe(
      key,
    );
  });
});

describe('idempotencyKeyFor on a hash that looks like a card number', () => {
  const save = defineTool({
    name: 'save_note',
    description: 'Save a note',
    effect: 'write',
    parameters: z.object({ note: z.string() }),
    execute: ({ note }) => {
      saved.push(note);
      return `saved ${note}`;
    },
  }) as ToolDefinition;
  const saved: string[] = [];

  it('gives a key the at-rest redaction leaves alone, and keeps every other key as it was', () => {
    // The hash of this note is all digits and passes the card rule: save_note:5847656744505590.
    const key = idempotencyKeyFor(save, { note: 'n33951' }, run);
    expect(redactValue({ key })).toEqual({ key });
    expect(key).toBe('save_note:5847656744505590z');
    // Write logs on disk hold keys of this form: they must keep matching.
    expect(idempotencyKeyFor(save, { note: 'n1' }, run)).toBe('save_note:a2a453c52b2e7f33');
  });

  it('refuses to make a key for a tool whose name the redaction masks, naming the fix', () => {
    const named = { ...save, name: '4111111111111111' } as ToolDefinition;
    expect(() => idempotencyKeyFor(named, { note: 'a' }, run)).toThrow(/rename the tool$/);
  });

  it('does not run the write again when a resumed run sends it again', async () => {
    saved.length = 0;
    const harness = { name: 'notes', tools: [save], system: () => 's', limits: { maxSteps: 5 } };
    const checkpoints = createMemoryCheckpointStore();
    const call = toolTurn([{ name: 'save_note', input: { note: 'n33951' } }]);
    const first = await runAgent({
      harness,
      model: createScriptedModel([
        call,
        () => {
          throw new Error('connection reset');
        },
      ]),
      modelId: 'scripted',
      prompt: 'save it',
      clock: createVirtualClock({ start: 0 }),
      mode: 'unattended',
      runId: 'notes',
      checkpoints,
    });
    expect(first.status).toBe('error');
    const resumed = await resumeAgent({
      runId: 'notes',
      checkpoints,
      harness,
      clock: createVirtualClock({ start: 0 }),
      model: createScriptedModel([call, textTurn('saved')]),
    });
    expect(resumed.status).toBe('done');
    expect(saved).toEqual(['n33951']);
    expect(resumed.toolCalls.at(-1)).toMatchObject({ decision: 'allow', replayed: true });
  });
});

describe('createWriteLog', () => {
  it('appends each key once and keeps the first record', async () => {
    const appended: WriteLogEntry[] = [];
    const record = (output: string): WriteRecord => ({
      key: 'k',
      tool: 't',
      input: {},
      output,
      decision: 'allow',
      step: 1,
      at: 'now',
    });
    const log = createWriteLog([], async (entry) => {
      appended.push(entry);
    });
    await log.record(record('first'));
    await log.record(record('second'));
    expect(appended).toEqual([record('first')]);
    expect(log.get('k')?.output).toBe('first');
  });

  it('says why an intent was last cleared, until something comes after it', () => {
    const intent = {
      kind: 'intent',
      key: 'k',
      tool: 't',
      input: {},
      decision: 'allow',
      step: 1,
      at: 'a',
    } as const;
    const cleared = (reason: 'tool_failed' | 'run_cancelled' | 'human_retry') =>
      ({ kind: 'cleared', key: 'k', reason, at: 'b' }) as const;
    const logOf = (entries: WriteLogEntry[]) => createWriteLog(entries, async () => {});
    expect(logOf([intent]).cleared?.('k')).toBeUndefined();
    expect(logOf([intent, cleared('run_cancelled')]).cleared?.('k')).toBe('run_cancelled');
    expect(logOf([intent, cleared('tool_failed'), intent]).cleared?.('k')).toBeUndefined();
    expect(
      logOf([intent, cleared('human_retry'), intent, cleared('tool_failed')]).cleared?.('k'),
    ).toBe('tool_failed');
    const made = {
      key: 'k',
      tool: 't',
      input: {},
      output: 'ok',
      decision: 'allow',
      step: 1,
      at: 'c',
    } as const;
    expect(logOf([intent, cleared('human_retry'), made]).cleared?.('k')).toBeUndefined();
  });
});

describe('createKeyedQueue', () => {
  it('runs tasks of one key in order and tasks of other keys at once', async () => {
    const queue = createKeyedQueue();
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const a1 = queue('a', async () => {
      await gate;
      order.push('a1');
    });
    const a2 = queue('a', async () => {
      order.push('a2');
    });
    const b = queue('b', async () => {
      order.push('b');
    });
    await b;
    expect(order).toEqual(['b']);
    release();
    await Promise.all([a1, a2]);
    expect(order).toEqual(['b', 'a1', 'a2']);
  });
});

describe('the pipeline with a write log', () => {
  it('executes a write once, passes its key to the tool, and replays the recorded result', async () => {
    executed.length = 0;
    contexts.length = 0;
    const log = createWriteLog([], async () => {});
    const pipeline = createToolPipeline({ tools: [pay, note], validate: true, writes: log });
    const first = await pipeline.run(
      { id: 'toolu_1', name: 'pay', input: { invoice: 'INV-1', note: 'first try' } },
      run,
    );
    // A retried call: new tool_use id, other wording, same business key.
    const again = await pipeline.run(
      { id: 'toolu_2', name: 'pay', input: { invoice: 'INV-1', note: 'second try' } },
      run,
    );
    expect(executed).toHaveLength(1);
    expect(contexts).toEqual(['run-7/pay:INV-1:pay']);
    expect(again.result.content).toBe(first.result.content);
    expect(again.record).toMatchObject({ replayed: true, decision: 'allow', isError: false });
    expect(log.list()).toEqual([
      expect.objectContaining({ key: 'pay:INV-1:pay', step: 2, at: '2026-10-01T09:00:00.000Z' }),
    ]);
  });

  it('does not record a write that failed, so a retry may run it', async () => {
    const flaky = defineTool({
      name: 'flaky',
      description: 'Fails once',
      effect: 'write',
      parameters: z.object({}),
      execute: () => {
        throw new Error('downstream unavailable');
      },
    });
    const log = createWriteLog([], async () => {});
    const pipeline = createToolPipeline({ tools: [flaky], writes: log });
    const outcome = await pipeline.run({ id: 'a', name: 'flaky', input: {} }, run);
    expect(outcome.record.decision).toBe('failed');
    expect(log.list()).toEqual([]);
  });
});
