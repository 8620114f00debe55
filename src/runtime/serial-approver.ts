import type { ApprovalAnswer, Approver } from './types.js';

/**
 * The approver asked one question at a time. The tool calls of one model turn run in parallel,
 * so without this a human would see every question of the turn at once, and one answer on a
 * shared terminal could settle several writes. A question that throws lets the next one go on.
 * A question whose signal aborted while it waited its turn (the run was cancelled) is not
 * asked: it answers `'defer'`, never yes.
 *
 * @example runAgent({ ..., approver: serialApprover(askOnSlack) })
 */
export function serialApprover(approver: Approver): Approver {
  let previous: Promise<unknown> = Promise.resolve();
  return (call, reason, approval) => {
    const answer: Promise<ApprovalAnswer> = previous.then(() =>
      approval?.signal.aborted ? 'defer' : approver(call, reason, approval),
    );
    previous = answer.catch(() => undefined);
    return answer;
  };
}
