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
 * A write of a paused batch that timed out before the pause: the batch told it that its outcome
 * is unknown and not to retry. Resume runs the batch again and gives that call the same answer
 * while its intent is open or after a late WriteNotMadeError cleared it (the write log alone
 * would let it run a second time, which the model never asked for); its result once it was
 * made later or a human said done; and runs it when a human said retry.
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
  const resume = (resolveWrites?: Record<string, 'done' | 'retry'>) => {
    const model = createScriptedModel([textTurn('A human will check the payment.')]);
    const resumed = resumeAgent({
      runId: 'run',
      checkpoints,
      harness,
      model,
      clock: clock(),
      approvals: true,
      ...(resolveWrites && { resolveWrites }),
    });
    return { model, resumed };
  };
  const key = paused.unresolvedWrites?.[0]?.key ?? '';
  return { payment, refund, resume, timedOut: answer?.content, key };
}

const toolResults = (request: { messages: Array<{ content: unknown }> }) =>
  request.messages.at(-1)?.content as Array<{ content: string; is_error?: boolean }>;

/** Lets a late outcome settle and be logged (the write log is appended asynchronously). */
const settleLate = async (settle: () => void) => {
  settle();
  for (let turns = 0; turns < 3; turns += 1) await new Promise(setImmediate);
};

describe('a write of a paused batch that timed out before the pause', () => {
  it('is answered with its timeout on resume, not run again, when it says later it wrote nothing', async () => {
    const { payment, refund, resume, timedOut } = await pausedAfterTimeout();
    payment.outcome.late = () => new WriteNotMadeError('the payment was never sent');
    await settleLate(payment.settle);

    const { model, resumed } = resume();
    const result = await resumed;
    expect(result.status).toBe('done');
    expect(payment.executions()).toBe(1);
    expect(refund.executed).toEqual(['ORD1']);
    const [paid] = toolResults(model.requests[0]!);
    expect(paid).toMatchObject({ content: timedOut, is_error: true });
    expect(result.toolCalls.map((call) => [call.tool, call.decision])).toEqual([
      ['pay', 'timeout'],
      ['refund', 'ask_approved'],
    ]);
    expect(result.unresolvedWrites).toBeUndefined();
    model.assertDone();
  });

  it('is answered with its timeout, and stays for a human, when its outcome never came', async () => {
    const { payment, resume, timedOut } = await pausedAfterTimeout();
    const { model, resumed } = resume();
    const result = await resumed;
    expect(result.status).toBe('done');
    expect(payment.executions()).toBe(1);
    expect(toolResults(model.requests[0]!)[0]?.content).toBe(timedOut);
    expect(result.unresolvedWrites?.map((write) => write.tool)).toEqual(['pay']);
  });

  it('is answered with its late result when it was made later: the model never saw the timeout', async () => {
    const { payment, resume } = await pausedAfterTimeout();
    await settleLate(payment.settle);
    const { model, resumed } = resume();
    const result = await resumed;
    expect(payment.executions()).toBe(1);
    expect(toolResults(model.requests[0]!)[0]).toMatchObject({ content: 'paid 5' });
    expect(result.toolCalls.find((call) => call.tool === 'pay')).toMatchObject({ replayed: true });
    // The write log keeps its late outcome: it is not unknown, and a later call gets it.
    expect(result.writes?.map((write) => write.output)).toEqual(['paid 5', 'refunded ORD1']);
    expect(result.unresolvedWrites).toBeUndefined();
  });

  it('runs again when a human said retry (--resolve-write KEY=retry): the human took that decision', async () => {
    const { payment, resume, key } = await pausedAfterTimeout();
    const result = await resume({ [key]: 'retry' }).resumed;
    expect(payment.executions()).toBe(2);
    expect(result.toolCalls.filter((call) => call.tool === 'pay').at(-1)?.decision).toBe('allow');
  });

  it('is answered as made when a human said done: not as unknown', async () => {
    const { payment, resume, key } = await pausedAfterTimeout();
    const { model, resumed } = resume({ [key]: 'done' });
    await resumed;
    expect(payment.executions()).toBe(1);
    expect(toolResults(model.requests[0]!)[0]?.content).toMatch(/already made earlier in this run/);
  });
});
