import { describe, expect, it } from 'vitest';
import { createVirtualClock } from '../core/clock.js';
import { createMemoryCheckpointStore } from './checkpoint-store.js';
import type { Harness } from './harness.js';
import { createWriteLog, type WriteLogEntry } from './idempotency.js';
import { createToolPipeline } from './pipeline.js';
import { resumeAgent } from './resume-agent.js';
import { runAgent } from './run-agent.js';
import { createScriptedModel, textTurn, toolTurn } from './scripted-model.js';
import { testRunState } from './testing/run-state.js';
import { chargeTool } from './testing/write-tools.js';

/**
 * A write the run was cancelled before is not run: it certainly did not happen, so it is not
 * left for a human as an unknown outcome. Only a write whose signal aborted while it ran stays
 * unknown (tool-signal.test.ts).
 */

const entryKinds = (entries: WriteLogEntry[]) =>
  entries.map((entry) => ('kind' in entry ? `${entry.kind}` : 'outcome'));

describe('a write the run was cancelled before', () => {
  it('is not run when a PreToolUse hook cancelled the run: no intent, decision cancelled', async () => {
    const run = new AbortController();
    const { tool, executed } = chargeTool();
    const entries: WriteLogEntry[] = [];
    const writes = createWriteLog([], async (entry) => {
      entries.push(entry);
    });
    const pipeline = createToolPipeline({
      tools: [tool],
      writes,
      signal: run.signal,
      hooks: {
        preToolUse: [
          async () => {
            run.abort(new Error('the user pressed Ctrl-C'));
            return undefined;
          },
        ],
      },
    });
    const outcome = await pipeline.run(
      { id: 'a', name: 'charge', input: { amount: 5 } },
      testRunState(),
    );
    expect(outcome.record.decision).toBe('cancelled');
    expect(outcome.result).toMatchObject({
      is_error: true,
      content: expect.stringMatching(/^charge was not run: the run was cancelled/),
    });
    expect(entries).toEqual([]);
    expect(executed).toEqual([]);
    expect(writes.unresolvedList()).toEqual([]);
  });

  it('clears the intent without calling the tool when the run is cancelled while the intent is logged', async () => {
    const run = new AbortController();
    const { tool, executed } = chargeTool();
    const entries: WriteLogEntry[] = [];
    const writes = createWriteLog([], async (entry) => {
      entries.push(entry);
      if ('kind' in entry && entry.kind === 'intent') run.abort(new Error('Ctrl-C'));
    });
    const pipeline = createToolPipeline({ tools: [tool], writes, signal: run.signal });
    const state = testRunState();
    const call = { id: 'a', name: 'charge', input: { amount: 5 } };
    const outcome = await pipeline.run(call, state);
    expect(outcome.record.decision).toBe('cancelled');
    expect(executed).toEqual([]);
    expect(entryKinds(entries)).toEqual(['intent', 'cleared']);
    expect(entries[1]).toMatchObject({ kind: 'cleared', reason: 'run_cancelled' });
    expect(writes.unresolvedList()).toEqual([]);
    // It did not happen: a run that goes on may make it, once.
    const again = createToolPipeline({ tools: [tool], writes });
    expect((await again.run({ ...call, id: 'b' }, state)).record.decision).toBe('allow');
    expect(executed).toEqual([5]);
  });

  it('is not run when resumed with a cancelled signal after its approval: no unknown outcome', async () => {
    const { tool, executed } = chargeTool();
    const harness: Harness = {
      name: 'charge-desk',
      tools: [tool],
      system: () => 'You are a test agent.',
      permissions: {
        rules: [],
        decide: () => ({ effect: 'ask', rule: undefined, reason: 'charges need a human' }),
      },
      limits: { maxSteps: 5 },
    };
    const clock = () => createVirtualClock({ start: Date.parse('2026-10-01T09:00:00Z') });
    const checkpoints = createMemoryCheckpointStore();
    const paused = await runAgent({
      harness,
      model: createScriptedModel([toolTurn([{ name: 'charge', input: { amount: 5 } }])]),
      modelId: 'scripted',
      prompt: 'charge',
      clock: clock(),
      mode: 'interactive',
      approver: async () => 'defer',
      runId: 'r',
      checkpoints,
    });
    expect(paused.status).toBe('awaiting_approval');
    const cancelled = new AbortController();
    cancelled.abort(new Error('cancelled'));
    const result = await resumeAgent({
      runId: 'r',
      checkpoints,
      harness,
      model: createScriptedModel([textTurn('ok')]),
      clock: clock(),
      approver: async () => true,
      signal: cancelled.signal,
    });
    expect(executed).toEqual([]);
    // The batch stays pending for the next resume (cancelled-batch.test.ts).
    expect(result.status).toBe('error');
    expect(result.toolCalls).toEqual([]);
    expect((await checkpoints.load('r'))?.state).toBe('awaiting_approval');
    expect(result.unresolvedWrites).toBeUndefined();
    expect(await checkpoints.loadWrites('r')).toEqual([]);
  });
});
