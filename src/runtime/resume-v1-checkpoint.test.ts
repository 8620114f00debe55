import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createVirtualClock } from '../core/clock.js';
import { WriteNotMadeError } from '../core/errors.js';
import { createMemoryCheckpointStore } from './checkpoint-store.js';
import { defineTool } from './define-tool.js';
import type { Harness } from './harness.js';
import { resumeAgent } from './resume-agent.js';
import { runAgent } from './run-agent.js';
import { createScriptedModel, textTurn, toolTurn } from './testing/scripted-model.js';
import { refundTool } from './testing/write-tools.js';
import type { ToolDefinition } from './types.js';

/**
 * A checkpoint an older build wrote (format v1) keeps a write of a paused batch that timed out
 * in `made` only, without the answer v2 keeps in `notMade`. When a late WriteNotMadeError clears
 * its intent before the resume, the write log no longer knows it: resume must still not run it
 * a second time, which the model never asked for (found by review).
 */

const clock = () => createVirtualClock({ start: Date.parse('2026-10-01T09:00:00Z') });

/**
 * A payment that waits 10 s on the clock, past its 1 s timeout. The first one ends when the test
 * says (`settle`): it throws `late()` then, or pays when `late` returns nothing. Later ones pay.
 */
function slowPayment() {
  let executions = 0;
  let settle: () => void = () => {};
  const settled = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const outcome: { late: () => Error | undefined } = { late: () => undefined };
  const tool = defineTool({
    name: 'pay',
    description: 'Send a payment',
    effect: 'write',
    timeoutMs: 1000,
    parameters: z.object({ amount: z.number() }),
    execute: async ({ amount }, { clock }) => {
      executions += 1;
      if (executions > 1) return `paid ${amount}`;
      await clock.sleep(10_000).catch(() => undefined);
      await settled;
      const error = outcome.late();
      if (error) throw error;
      return `paid ${amount}`;
    },
  }) as ToolDefinition;
  return { tool, outcome, settle, executions: () => executions };
}

async function pausedAfterTimeout() {
  const payment = slowPayment();
  const refund = refundTool();
  const harness: Harness = {
    name: 'desk',
    tools: [payment.tool, refund.tool],
    system: () => 'You are a test agent.',
    timeouts: true,
    permissions: {
      rules: [],
      decide: (tool) =>
        tool === 'refund'
          ? { effect: 'ask', rule: undefined, reason: 'refunds need a human' }
          : { effect: 'allow', rule: undefined, reason: 'payments are fine' },
    },
    limits: { maxSteps: 5 },
  };
  const checkpoints = createMemoryCheckpointStore();
  const paused = await runAgent({
    harness,
    model: createScriptedModel([
      toolTurn([
        { name: 'pay', input: { amount: 5 }, id: 'toolu_pay' },
        { name: 'refund', input: { order_id: 'ORD1' }, id: 'toolu_refund' },
      ]),
    ]),
    modelId: 'scripted',
    prompt: 'pay 5 and refund ORD1',
    clock: clock(),
    mode: 'interactive',
    approver: async () => 'defer',
    runId: 'run',
    checkpoints,
  });
  expect(paused.status).toBe('awaiting_approval');
  expect(paused.unresolvedWrites?.map((write) => write.tool)).toEqual(['pay']);
  const answer = (await checkpoints.load('run'))?.pendingApproval?.notMade?.toolu_pay;
  expect(answer).toMatchObject({ tool: 'pay', decision: 'timeout' });
  expect(answer?.content).toMatch(/^pay timed out after 1000 ms .* its outcome is unknown/);
  const resume = () => {
    const model = createScriptedModel([textTurn('A human will check the payment.')]);
    const resumed = resumeAgent({
      runId: 'run',
      checkpoints,
      harness,
      model,
      clock: clock(),
      approvals: true,
    });
    return { model, resumed };
  };
  return { payment, resume, checkpoints };
}

/** Lets a late outcome settle and be logged (the write log is appended asynchronously). */
const settleLate = async (settle: () => void) => {
  settle();
  for (let turns = 0; turns < 3; turns += 1) await new Promise(setImmediate);
};

describe('resuming a v1 checkpoint whose timed-out write was settled as not made since', () => {
  it('does not run the write again: it tells the model, which may call it again', async () => {
    const { payment, resume, checkpoints } = await pausedAfterTimeout();
    const checkpoint = await checkpoints.load('run');
    // What the build before format v2 wrote: v1, the timed-out write in `made` only.
    const v1 = structuredClone(checkpoint!);
    (v1 as { version: number }).version = 1;
    delete v1.pendingApproval!.notMade;
    await checkpoints.save(v1);
    payment.outcome.late = () => new WriteNotMadeError('the payment was never sent');
    await settleLate(payment.settle);
    const result = await resume().resumed;
    expect(payment.executions()).toBe(1);
    expect(result.status).toBe('done');
    const pay = result.toolCalls.filter((call) => call.tool === 'pay');
    expect(pay.at(-1)).toMatchObject({ decision: 'failed', isError: true });
    expect(result.unresolvedWrites ?? []).toEqual([]);
  });
});
