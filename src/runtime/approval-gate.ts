import { callSignal } from '../core/call-signal.js';
import { askApprover } from './pipeline-guards.js';
import type { ApprovalAnswer, Approver, RunMode, ToolCall } from './types.js';

export type RecordedApproval = 'yes' | 'no' | 'later';

export interface ApprovalAsk {
  /** The call as the approver sees it: its input after the PreToolUse hooks. */
  call: ToolCall;
  /** Why the permission policy asks. */
  reason: string;
  approver?: Approver | undefined;
  mode: RunMode;
  /** The run's: once it aborts, no one is asked, and an open question is not waited for. */
  signal?: AbortSignal | undefined;
  /** The latest answer the run's journal holds for exactly this call with exactly this value. */
  recorded?: RecordedApproval | undefined;
  /** A human was asked about this call before (maybe about another value): it keeps waiting. */
  asked?: boolean | undefined;
  /** Durable runs: keeps a human's answer, so `later` can pause the run. */
  record?: ((answer: RecordedApproval) => Promise<void>) | undefined;
}

export type ApprovalVerdict =
  | { kind: 'yes' }
  | { kind: 'stop'; content: string }
  /** A human decides later: the run pauses (durable runs only). */
  | { kind: 'later' }
  /** The run was cancelled before an answer: nothing is kept, the call did not run. */
  | { kind: 'withdrawn' };

const FOLLOW_UP = 'Tell the user a human agent will follow up.';

/**
 * Whether an `ask` call may run. Only a "yes" given to this exact call and value runs it: one
 * kept in the journal (a resumed run does not ask again), or the approver's, which is kept
 * before the call runs. A "no" stays a "no". A cancelled run asks no one; a question open when it is cancelled
 * is withdrawn (the approver's signal aborts) and its answer, whenever it comes, is not kept.
 */
export async function approvalGate(ask: ApprovalAsk): Promise<ApprovalVerdict> {
  const { reason, approver, mode, recorded } = ask;
  const tool = ask.call.name;
  // A human decides later: kept once, so that the run pauses on it.
  const later = async (record: (answer: RecordedApproval) => Promise<void>) => {
    if (recorded !== 'later') await record('later');
    return { kind: 'later' } as const;
  };
  if (recorded === 'yes') return { kind: 'yes' };
  if (recorded === 'no') return declined(tool);
  if (mode === 'unattended') return refused(tool, reason, 'this run is unattended');
  // Nobody to ask now: a question already put to a human keeps waiting, with its value now.
  if (!approver) {
    if (!ask.asked || !ask.record) return refused(tool, reason, 'no one can approve it');
    return later(ask.record);
  }
  if (ask.signal?.aborted) return { kind: 'withdrawn' };
  const answer = await openQuestion(ask, approver);
  if (answer === 'withdrawn') return { kind: 'withdrawn' };
  if (typeof answer === 'object') {
    return {
      kind: 'stop',
      content: `${tool} needs a human's approval (${reason}), but ${answer.problem}, so it was not executed. ${FOLLOW_UP}`,
    };
  }
  if (answer === 'defer') {
    return ask.record ? later(ask.record) : refused(tool, reason, 'no one can approve it now');
  }
  await ask.record?.(answer ? 'yes' : 'no');
  return answer ? { kind: 'yes' } : declined(tool);
}

const declined = (tool: string): ApprovalVerdict => ({
  kind: 'stop',
  content: `The user declined ${tool}; it was not executed. Use another approach.`,
});

const refused = (tool: string, reason: string, who: string): ApprovalVerdict => ({
  kind: 'stop',
  content: `${tool} needs a human's approval (${reason}) and ${who}, so it was not executed. ${FOLLOW_UP}`,
});

/** The approver's answer, or 'withdrawn' as soon as the run's signal aborts, without waiting for it. */
async function openQuestion(
  ask: ApprovalAsk,
  approver: Approver,
): Promise<ApprovalAnswer | { problem: string } | 'withdrawn'> {
  // The question's own signal: once it is answered, the run's cancel no longer reaches it.
  const question = callSignal(undefined, ask.signal);
  const signal = question.signal();
  const answer = askApprover(() => approver(ask.call, ask.reason, { signal }));
  const settled = await new Promise<ApprovalAnswer | { problem: string } | 'withdrawn'>(
    (resolve) => {
      if (signal.aborted) return resolve('withdrawn');
      const withdrawn = () => resolve('withdrawn');
      signal.addEventListener('abort', withdrawn, { once: true });
      // askApprover never rejects.
      void answer.then((value) => {
        signal.removeEventListener('abort', withdrawn);
        resolve(value);
      });
    },
  );
  question.release();
  return settled;
}
