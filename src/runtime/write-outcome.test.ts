import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createVirtualClock } from '../core/clock.js';
import { ConfigError } from '../core/errors.js';
import { type CheckpointStore, createFileCheckpointStore } from './checkpoint-store.js';
import { defineTool } from './define-tool.js';
import {
  createWriteLog,
  RESOLVED_DONE_OUTPUT,
  type WriteLogEntry,
  type WriteRecord,
} from './idempotency.js';
import { createToolPipeline } from './pipeline.js';
import { resumeAgent } from './resume-agent.js';
import { runAgent } from './run-agent.js';
import { createScriptedModel } from './scripted-model.js';
import {
  afterCrashTurns,
  beforeCrashTurns,
  CRASH_RUN_ID,
  crashHarness,
} from './testing/crash-harness.js';
import { testRunState } from './testing/run-state.js';

/** A write that ignores its AbortSignal: it finishes when the test says so, long after its timeout. */
function lateTransfer() {
  let executions = 0;
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const tool = defineTool({
    name: 'transfer',
    description: 'Move money (a write that ignores its signal)',
    effect: 'write',
    timeoutMs: 1000,
    parameters: z.object({ to: z.string(), amount: z.number() }),
    execute: async ({ to, amount }) => {
      executions += 1;
      await finished;
      return { transferred: amount, to };
    },
  });
  return { tool, finish, executions: () => executions };
}

const transferCall = (id: string) => ({
  id,
  name: 'transfer',
  input: { to: 'ACC-1', amount: 50 },
});

function memoryLog(initial: WriteLogEntry[] = []) {
  const entries = [...initial];
  const log = createWriteLog(initial, async (entry) => {
    entries.push(entry);
  });
  return { log, entries };
}

describe('a write that times out', () => {
  it('is never run twice: a retry is outcome_unknown until its late result is logged, then replayed', async () => {
    const transfer = lateTransfer();
    const { log, entries } = memoryLog();
    const pipeline = createToolPipeline({ tools: [transfer.tool], timeouts: true, writes: log });
    const run = testRunState();

    const first = await pipeline.run(transferCall('toolu_1'), run);
    expect(first.record.decision).toBe('timeout');
    expect(first.result.content).toContain('its outcome is unknown');
    expect(first.result.content).toContain('do not retry it');
    expect(entries.map((entry) => ('kind' in entry ? entry.kind : 'outcome'))).toEqual(['intent']);

    const retry = await pipeline.run(transferCall('toolu_2'), run);
    expect(retry.record.decision).toBe('outcome_unknown');
    expect(retry.result).toMatchObject({ is_error: true });
    expect(retry.result.content).toContain('It was not run again');
    expect(transfer.executions()).toBe(1);
    expect(log.unresolvedList().map((intent) => intent.key)).toEqual([
      expect.stringMatching(/^transfer:/),
    ]);

    // The tool finishes after all: its outcome is logged, and a later retry gets it back.
    transfer.finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(log.unresolvedList()).toEqual([]);
    const later = await pipeline.run(transferCall('toolu_3'), run);
    expect(later.record).toMatchObject({ decision: 'allow', replayed: true, isError: false });
    expect(later.result.content).toBe('{"transferred":50,"to":"ACC-1"}');
    expect(transfer.executions()).toBe(1);
  });

  it('a thrown write clears its intent, so a retry may run it (it did not happen)', async () => {
    let executions = 0;
    const flaky = defineTool({
      name: 'flaky_write',
      description: 'Throws on its first call',
      effect: 'write',
      parameters: z.object({}),
      execute: () => {
        executions += 1;
        if (executions === 1) throw new Error('downstream refused the request');
        return 'written';
      },
    });
    const { log, entries } = memoryLog();
    const pipeline = createToolPipeline({ tools: [flaky], writes: log });
    const call = { id: 'a', name: 'flaky_write', input: {} };
    expect((await pipeline.run(call, testRunState())).record.decision).toBe('failed');
    expect((await pipeline.run({ ...call, id: 'b' }, testRunState())).record.decision).toBe(
      'allow',
    );
    expect(executions).toBe(2);
    expect(entries.map((entry) => ('kind' in entry ? entry.kind : 'outcome'))).toEqual([
      'intent',
      'cleared',
      'intent',
      'outcome',
    ]);
  });
});

describe("a human's decision on a write whose outcome is unknown", () => {
  const intent: WriteLogEntry = {
    kind: 'intent',
    key: 'transfer:k1',
    tool: 'transfer',
    input: { to: 'ACC-1', amount: 50 },
    decision: 'ask_approved',
    step: 2,
    at: '2026-10-01T09:00:00.000Z',
  };
  const counted = () => {
    let executions = 0;
    const tool = defineTool({
      name: 'transfer',
      description: 'Move money',
      effect: 'write',
      parameters: z.object({ to: z.string(), amount: z.number() }),
      idempotencyKey: () => 'k1',
      execute: () => {
        executions += 1;
        return 'moved';
      },
    });
    return { tool, executions: () => executions };
  };

  it('done: the write is answered as made, never run', async () => {
    const transfer = counted();
    const { log } = memoryLog([intent]);
    await log.resolve({ 'transfer:k1': 'done' }, '2026-10-02T00:00:00.000Z');
    const pipeline = createToolPipeline({ tools: [transfer.tool], writes: log });
    const outcome = await pipeline.run(transferCall('toolu_9'), testRunState());
    expect(transfer.executions()).toBe(0);
    expect(outcome.record).toMatchObject({ decision: 'ask_approved', replayed: true });
    expect(outcome.result.content).toBe(RESOLVED_DONE_OUTPUT);
  });

  it('retry: the next identical call runs it once', async () => {
    const transfer = counted();
    const { log } = memoryLog([intent]);
    const pipeline = createToolPipeline({ tools: [transfer.tool], writes: log });
    expect((await pipeline.run(transferCall('a'), testRunState())).record.decision).toBe(
      'outcome_unknown',
    );
    await log.resolve({ 'transfer:k1': 'retry' }, '2026-10-02T00:00:00.000Z');
    expect((await pipeline.run(transferCall('b'), testRunState())).record.decision).toBe('allow');
    expect((await pipeline.run(transferCall('c'), testRunState())).record.replayed).toBe(true);
    expect(transfer.executions()).toBe(1);
  });

  it('refuses a key that waits for no decision, naming the ones that do', async () => {
    const { log } = memoryLog([intent]);
    const error = await log.resolve({ 'transfer:nope': 'done' }, 'now').catch((caught) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(
      "no write with an unknown outcome has the key 'transfer:nope'; writes waiting for a decision: transfer:k1 (nothing was recorded)",
    );
  });

  it('records no decision when one key of several is wrong, so the corrected command still works', async () => {
    const { log, entries } = memoryLog([intent]);
    const before = entries.length;
    await expect(
      log.resolve({ 'transfer:k1': 'done', 'transfer:typo': 'retry' }, 'now'),
    ).rejects.toThrow("no write with an unknown outcome has the key 'transfer:typo'");
    expect(entries).toHaveLength(before);
    expect(log.unresolved('transfer:k1')).toBeDefined();
    await log.resolve({ 'transfer:k1': 'done' }, 'now');
    expect(log.unresolved('transfer:k1')).toBeUndefined();
  });
});

describe('a crash between a write and the log of its outcome (in process)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'write-outcome-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const downstream = () =>
    readFileSync(join(dir, 'downstream.jsonl'), 'utf8').trim().split('\n').filter(Boolean);

  /** The file store, except that the process "dies" when it would log a write's outcome. */
  function dyingAtOutcome(store: CheckpointStore): CheckpointStore {
    return {
      ...store,
      appendWrite: async (runId, entry) => {
        if (!('kind' in entry)) throw new Error('simulated crash: the process died here');
        return store.appendWrite(runId, entry);
      },
    };
  }

  it('does not run the write again on resume; the model hears the outcome is unknown; a human resolves it', async () => {
    const store = createFileCheckpointStore({ dir: join(dir, 'checkpoints') });
    const harness = crashHarness(join(dir, 'downstream.jsonl'));
    const crashed = await runAgent({
      harness,
      model: createScriptedModel(beforeCrashTurns()),
      modelId: 'scripted',
      prompt: 'Resubmit the refund for ORD1001.',
      clock: createVirtualClock({ start: 0 }),
      mode: 'unattended',
      runId: CRASH_RUN_ID,
      checkpoints: dyingAtOutcome(store),
    });
    expect(crashed.status).toBe('error');
    expect(downstream()).toHaveLength(1);
    expect(await store.loadWrites(CRASH_RUN_ID)).toEqual([
      expect.objectContaining({ kind: 'intent', key: 'submit_refund:ORD1001:submit' }),
    ]);

    const model = createScriptedModel(afterCrashTurns());
    const resumed = await resumeAgent({
      runId: CRASH_RUN_ID,
      checkpoints: store,
      harness,
      model,
      clock: createVirtualClock({ start: 0 }),
    });
    model.assertDone();
    expect(resumed.status).toBe('done');
    expect(downstream()).toHaveLength(1);
    expect(resumed.toolCalls.at(-1)).toMatchObject({
      tool: 'submit_refund',
      decision: 'outcome_unknown',
      isError: true,
    });
    expect(JSON.stringify(model.requests[1]?.messages.at(-1))).toContain(
      'its outcome is unknown: it timed out or the run was interrupted',
    );
    expect(resumed.unresolvedWrites?.map((intent) => intent.key)).toEqual([
      'submit_refund:ORD1001:submit',
    ]);

    // The human checked the refund system: it went through.
    const settled = await resumeAgent({
      runId: CRASH_RUN_ID,
      checkpoints: store,
      harness,
      model: createScriptedModel([]),
      clock: createVirtualClock({ start: 0 }),
      resolveWrites: { 'submit_refund:ORD1001:submit': 'done' },
    });
    expect(settled.unresolvedWrites).toBeUndefined();
    expect(settled.writes).toEqual([
      expect.objectContaining<Partial<WriteRecord>>({
        key: 'submit_refund:ORD1001:submit',
        output: RESOLVED_DONE_OUTPUT,
      }),
    ]);
    expect(downstream()).toHaveLength(1);
  });
});
