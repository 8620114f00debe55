import { answersOf, batchAnswers } from './paused-batch.js';
import type { PendingApproval } from './run-snapshot.js';
import type { Approver } from './types.js';

/** Answers for calls a paused run waits on: one for all, or per tool_use id. */
export type ApprovalDecisions = boolean | Record<string, boolean>;

/**
 * Who answers the calls of a paused batch run again: the answers given before the pause (a
 * "no" stays a "no"), then `approvals` (`--approve`), then the approver; without one, the call
 * waits again (`'defer'`).
 */
export function pausedBatchApprover(
  pending: PendingApproval,
  approvals: ApprovalDecisions | undefined,
  approver: Approver | undefined,
): Approver {
  const given = answersOf(pending.answers);
  const byId = typeof approvals === 'object' ? answersOf(approvals) : undefined;
  const answerOf = batchAnswers(pending.calls);
  const decided = (id: string): boolean | undefined =>
    answerOf(given, id) ?? (typeof approvals === 'boolean' ? approvals : answerOf(byId, id));
  return async (call, reason, approval) =>
    decided(call.id) ?? (approver ? approver(call, reason, approval) : 'defer');
}
