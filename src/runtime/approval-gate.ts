import { callSignal } from '../core/call-signal.js';
import { askApprover } from './pipeline-guards.js';
import type { ApprovalAnswer, Approver, RunMode, ToolCall } from './types.js';

export interface ApprovalAsk {
  tool: string;
  /** The call as the approver sees it: its input after the PreToolUse hooks. */
  call: ToolCall;
  /** Why the permission policy asks. */
  reason: string;
  approver?: Approver | undefined;
  mode: RunMode;
  /** The approver may answer `'defer'`: the call waits for a human (the run can pause). */
  canDefer?: boolean | undefined;
  /** The run's: once it aborts, no one is asked, and an open question is not waited for. */
  signal?: AbortSignal | undefined;
}

/** Why an `ask` call is not run: the tool_result text, and the reason when it was deferred. */
export interface ApprovalStop {
  content: string;
  deferred?: string;
}

/** The run was cancelled before the approver answered: the call is not run (`cancelled`). */
export const APPROVAL_CANCELLED: unique symbol = Symbol('approval cancelled');

/**
 * Asks the approver about an `ask` call: undefined when a human approved it, else why not.
 * A cancelled run asks no one; a question open when it is cancelled is withdrawn (the
 * approver's signal aborts) and its answer, whenever it comes, is not used.
 */
export async function approvalGate(
  ask: ApprovalAsk,
): Promise<ApprovalStop | typeof APPROVAL_CANCELLED | undefined> {
  const { tool, reason, approver, mode } = ask;
  const followUp = 'Tell the user a human agent will follow up.';
  if (mode === 'unattended' || !approver) {
    const who = mode === 'unattended' ? 'this run is unattended' : 'no one can approve it';
    return {
      content: `${tool} needs a human's approval (${reason}) and ${who}, so it was not executed. ${followUp}`,
    };
  }
  if (ask.signal?.aborted) return APPROVAL_CANCELLED;
  // The question's own signal: once it is answered, the run's cancel no longer reaches it.
  const question = callSignal(undefined, ask.signal);
  const signal = question.signal();
  const answer = await unlessAborted(
    askApprover(() => approver(ask.call, reason, { signal })),
    signal,
  );
  question.release();
  if (answer === APPROVAL_CANCELLED) return APPROVAL_CANCELLED;
  if (typeof answer === 'object') {
    return {
      content: `${tool} needs a human's approval (${reason}), but ${answer.problem}, so it was not executed. ${followUp}`,
    };
  }
  if (answer === 'defer') {
    return ask.canDefer
      ? { content: `${tool} is waiting for a human's approval.`, deferred: reason }
      : {
          content: `${tool} needs a human's approval (${reason}) and no one can approve it now, so it was not executed. ${followUp}`,
        };
  }
  if (!answer) {
    return { content: `The user declined ${tool}; it was not executed. Use another approach.` };
  }
  return undefined;
}

/** The answer, or APPROVAL_CANCELLED as soon as `signal` aborts, without waiting for it. */
function unlessAborted(
  answer: Promise<ApprovalAnswer | { problem: string }>,
  signal: AbortSignal,
): Promise<ApprovalAnswer | { problem: string } | typeof APPROVAL_CANCELLED> {
  if (signal.aborted) return Promise.resolve(APPROVAL_CANCELLED);
  return new Promise((resolve) => {
    const cancelled = () => resolve(APPROVAL_CANCELLED);
    signal.addEventListener('abort', cancelled, { once: true });
    // askApprover never rejects.
    void answer.then((value) => {
      signal.removeEventListener('abort', cancelled);
      resolve(value);
    });
  });
}
