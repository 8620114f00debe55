import { describe, expect, it } from 'vitest';
import { WriteNotMadeError } from '../core/errors.js';
import { pausedAfterTimeout, settleLate } from './testing/paused-payment.js';

/**
 * A checkpoint an older build wrote (format v1) keeps a write of a paused batch that timed out
 * in `made` only, without the answer v2 keeps in `notMade`. When a late WriteNotMadeError clears
 * its intent before the resume, the write log no longer knows it: resume must still not run it
 * a second time, which the model never asked for (found by review).
 */

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
