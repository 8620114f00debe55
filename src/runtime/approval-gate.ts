import { askApprover } from './pipeline-guards.js';
import type { Approver, RunMode, ToolCall } from './types.js';

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
}

/** Why an `ask` call is not run: the tool_result text, and the reason when it was deferred. */
export interface ApprovalStop {
  content: string;
  deferred?: string;
}

/** Asks the approver about an `ask` call: undefined when a human approved it, else why not. */
export async function approvalGate(ask: ApprovalAsk): Promise<ApprovalStop | undefined> {
  const { tool, reason, approver, mode } = ask;
  const followUp = 'Tell the user a human agent will follow up.';
  if (mode === 'unattended' || !approver) {
    const who = mode === 'unattended' ? 'this run is unattended' : 'no one can approve it';
    return {
      content: `${tool} needs a human's approval (${reason}) and ${who}, so it was not executed. ${followUp}`,
    };
  }
  const answer = await askApprover(() => approver(ask.call, reason));
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
