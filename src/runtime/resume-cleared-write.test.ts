import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createVirtualClock } from '../core/clock.js';
import { type CheckpointStore, createMemoryCheckpointStore } from './checkpoint-store.js';
import { defineTool } from './define-tool.js';
import { resumeAgent } from './resume-agent.js';
import { runAgent } from './run-agent.js';
import { createScriptedModel, textTurn, toolTurn } from './scripted-model.js';
import { pausedMidway, payDesk } from './testing/paused-payment.js';
import { refundTool } from './testing/write-tools.js';
import type { ToolDefinition } from './types.js';

/**
 * A write of a paused batch whose intent was cleared between the pause and the resume runs on
 * resume when it never ran (the run was cancelled before it started) or a human said retry;
 * only a tool's own "not made" keeps it from running again (resume-v1-checkpoint.test.ts).
 */

const clock = () => createVirtualClock({ start: Date.parse('2026-10-01T09:00:00Z') });

function payTool() {
  const executed: number[] = [];
  const tool = defineTool({
    name: 'pay',
    description: 'Pay',
    effect: 'write',
    parameters: z.object({ amount: z.number() }),
    execute: ({ amount }) => {
      executed.push(amount);
      return `paid ${amount}`;
    },
  }) as ToolDefinition;
  return { tool, executed };
}

const calls = [
  { name: 'pay', input: { amount: 5 }, id: 'toolu_pay' },
  { name: 'refund', input: { order_id: 'ORD1' }, id: 'toolu_refund' },
];

async function cancelledBeforeStart() {
  const pay = payTool();
  const refund = refundTool();
  const harness = payDesk(pay.tool, refund.tool, false);
  const run = new AbortController();
  let deferred = () => {};
  const refundDeferred = new Promise<void>((r) => {
    deferred = r;
  });
  const store = createMemoryCheckpointStore();
  const checkpoints: CheckpointStore = {
    ...store,
    async appendWrite(runId, entry) {
      if ('kind' in entry && entry.kind === 'intent' && entry.tool === 'pay') {
        await refundDeferred;
        await new Promise(setImmediate);
        run.abort(new Error('Ctrl-C'));
      }
      return store.appendWrite(runId, entry);
    },
  };
  const first = await runAgent({
    harness,
    model: createScriptedModel([toolTurn(calls)]),
    modelId: 'scripted',
    prompt: 'pay and refund',
    clock: clock(),
    mode: 'interactive',
    approver: async () => {
      deferred();
      return 'defer';
    },
    runId: 'run',
    checkpoints,
    signal: run.signal,
  });
  return { first, pay, refund, harness, checkpoints };
}

describe('resuming a batch whose write the run was cancelled before it started', () => {
  it('runs it: it never ran', async () => {
    const { pay, harness, checkpoints } = await cancelledBeforeStart();
    expect(pay.executed).toEqual([]);
    const resumed = await resumeAgent({
      runId: 'run',
      checkpoints,
      harness,
      model: createScriptedModel([textTurn('ok')]),
      clock: clock(),
      approvals: true,
    });
    expect(pay.executed).toEqual([5]);
    expect(resumed.status).toBe('done');
  });

  it('runs it from a checkpoint that kept it in made (written by an earlier build)', async () => {
    const { pay, harness, checkpoints } = await cancelledBeforeStart();
    const checkpoint = (await checkpoints.load('run'))!;
    const intent = (await checkpoints.loadWrites('run')).find(
      (entry) => 'kind' in entry && entry.kind === 'intent',
    );
    checkpoint.pendingApproval!.made = { toolu_pay: intent!.key };
    await checkpoints.save(checkpoint);
    const resumed = await resumeAgent({
      runId: 'run',
      checkpoints,
      harness,
      model: createScriptedModel([textTurn('ok')]),
      clock: clock(),
      approvals: true,
    });
    expect(pay.executed).toEqual([5]);
    expect(resumed.toolCalls.filter((call) => call.tool === 'pay').at(-1)?.decision).toBe('allow');
  });
});

describe('resuming a batch whose write a human said to retry', () => {
  it('runs it again: the human took that decision', async () => {
    const { executed, first, resume } = await pausedMidway();
    const key = first.unresolvedWrites![0]!.key;
    const resumed = await resume({ approvals: true, resolveWrites: { [key]: 'retry' } }).resumed;
    expect(executed).toEqual([5, 5]);
    expect(resumed.status).toBe('done');
  });
});

describe('resuming a batch whose write log was lost or pruned', () => {
  it('does not run again a write whose outcome was unknown: a human must check it', async () => {
    const { executed, first, loseLog, resume } = await pausedMidway();
    expect(first.unresolvedWrites).toHaveLength(1);
    loseLog();
    const resumed = await resume().resumed;
    expect(executed).toEqual([5]);
    expect(resumed.toolCalls.filter((call) => call.tool === 'pay').at(-1)?.decision).toBe(
      'outcome_unknown',
    );
  });
});
