import { describe, expect, it } from 'vitest';
import { WriteNotMadeError } from '../core/errors.js';
import {
  pausedAfterTimeout as pausedRun,
  settleLate,
  toolResults,
} from './testing/paused-payment.js';

/**
 * A write of a paused batch that timed out before the pause: the batch told it that its outcome
 * is unknown and not to retry. Resume runs the batch again and gives that call the same answer
 * while its intent is open or after a late WriteNotMadeError cleared it (the write log alone
 * would let it run a second time, which the model never asked for); its result once it was
 * made later or a human said done; and runs it when a human said retry.
 */

/** The paused run, checked: the timed-out write is unresolved and its timeout answer is kept. */
async function pausedAfterTimeout() {
  const paused = await pausedRun();
  expect(paused.paused.status).toBe('awaiting_approval');
  expect(paused.paused.unresolvedWrites?.map((write) => write.tool)).toEqual(['pay']);
  const answer = (await paused.checkpoints.load('run'))?.pendingApproval?.notMade?.toolu_pay;
  expect(answer).toMatchObject({ tool: 'pay', decision: 'timeout' });
  expect(answer?.content).toMatch(/^pay timed out after 1000 ms .* its outcome is unknown/);
  return { ...paused, timedOut: answer?.content };
}

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
    const result = await resume({ approvals: true, resolveWrites: { [key]: 'retry' } }).resumed;
    expect(payment.executions()).toBe(2);
    expect(result.toolCalls.filter((call) => call.tool === 'pay').at(-1)?.decision).toBe('allow');
  });

  it('is answered as made when a human said done: not as unknown', async () => {
    const { payment, resume, key } = await pausedAfterTimeout();
    const { model, resumed } = resume({ approvals: true, resolveWrites: { [key]: 'done' } });
    await resumed;
    expect(payment.executions()).toBe(1);
    expect(toolResults(model.requests[0]!)[0]?.content).toMatch(/already made earlier in this run/);
  });
});
