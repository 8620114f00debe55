import { describe, expect, it } from 'vitest';
import { WriteNotMadeError } from '../core/errors.js';
import { pausedAfterTimeout, pausedMidway, toolResults } from './testing/paused-payment.js';

/**
 * What resume does with a paused batch's write follows what the write log says now, also when
 * the resumed batch pauses again (it keeps what the earlier pause kept) and for a call whose id
 * the redaction at rest changes (its kept answer holds its write key). Found by review.
 */

describe('a human resolving a timed-out write of a paused batch', () => {
  it('retry runs it, for a call whose id the redaction at rest changes', async () => {
    const { payment, resume, key } = await pausedAfterTimeout('call-4111111111111111');
    await resume({ approvals: true, resolveWrites: { [key]: 'retry' } }).resumed;
    expect(payment.executions()).toBe(2);
  });

  it('done answers it as made, for a call whose id the redaction at rest changes', async () => {
    const { resume, key } = await pausedAfterTimeout('call-4111111111111111');
    const { model, resumed } = resume({ approvals: true, resolveWrites: { [key]: 'done' } });
    await resumed;
    expect(toolResults(model.requests[0]!)[0]?.content).toMatch(/already made earlier/);
  });

  it('retry runs it after the resumed batch paused again', async () => {
    const { payment, resume, key } = await pausedAfterTimeout('toolu_pay');
    // No approvals: the refund is deferred again, and the batch pauses a second time.
    expect((await resume({}).resumed).status).toBe('awaiting_approval');
    const result = await resume({ approvals: true, resolveWrites: { [key]: 'retry' } }).resumed;
    expect(payment.executions()).toBe(2);
    expect(result.unresolvedWrites).toBeUndefined();
  });
});

describe('a resumed batch that pauses again', () => {
  it('does not run a write of unknown outcome whose log was lost', async () => {
    const { executed, first, loseLog, resume } = await pausedMidway();
    expect(first.unresolvedWrites).toHaveLength(1);
    loseLog();
    // No approvals: the refund is deferred again, and the batch pauses a second time.
    expect((await resume({}).resumed).status).toBe('awaiting_approval');
    const last = await resume().resumed;
    expect(executed).toEqual([5]);
    expect(last.toolCalls.filter((call) => call.tool === 'pay').at(-1)?.decision).toBe(
      'outcome_unknown',
    );
  });

  it('does not run the write of a v1 checkpoint that its tool said did not take effect', async () => {
    const { payment, resume, checkpoints } = await pausedAfterTimeout('toolu_pay');
    const v1 = structuredClone((await checkpoints.load('run'))!);
    (v1 as { version: number }).version = 1;
    delete v1.pendingApproval!.notMade;
    await checkpoints.save(v1);
    payment.outcome.late = () => new WriteNotMadeError('never sent');
    payment.settle();
    for (let turn = 0; turn < 3; turn += 1) await new Promise(setImmediate);
    expect((await resume({}).resumed).status).toBe('awaiting_approval');
    await resume({ approvals: true }).resumed;
    expect(payment.executions()).toBe(1);
  });
});
