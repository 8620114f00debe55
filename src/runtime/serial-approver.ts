import type { ApprovalAnswer, Approver } from './types.js';

/**
 * The approver asked one question at a time. The tool calls of one model turn run in parallel,
 * so without this a human would see every question of the turn at once, and one answer on a
 * shared terminal could settle several writes. A question that throws lets the next one go on.
 *
 * @example runAgent({ ..., approver: serialApprover(askOnSlack) })
 */
export function serialApprover(approver: Approver): Approver {
  let previous: Promise<unknown> = Promise.resolve();
  return (call, reason) => {
    const answer: Promise<ApprovalAnswer> = previous.then(() => approver(call, reason));
    previous = answer.catch(() => undefined);
    return answer;
  };
}
