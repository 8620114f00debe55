import type { Executed } from './execute-tool.js';
import type { WriteIntent, WriteLog } from './idempotency.js';
import { logged } from './pipeline-guards.js';
import { resultText } from './tool-output.js';
import type { Decision, RunState } from './types.js';

/** How a write that outlived its timeout ended, when it ends at all (`notMade`: it said so). */
export type LateOutcome = Promise<
  { kind: 'ok'; value: unknown } | { kind: 'failed'; notMade?: true | undefined }
>;

/** One execution of a write, logged around it: intent before, outcome after. */
export interface WriteAttempt {
  /** Durable before the tool runs. */
  intend(): Promise<void>;
  done(output: string): Promise<void>;
  /** The tool threw: nothing was written, a later call may run it. */
  failed(): Promise<void>;
  /** The run was cancelled after the intent was logged, before the tool was called. */
  notRun(): Promise<void>;
  /**
   * The write timed out but may still finish: log its outcome if it does. A failure after the
   * deadline leaves it unknown, whatever the error (its timeout's, an AbortError around it, the
   * tool's own): the signal had aborted, and it may have written before the wait that ended.
   * Only a WriteNotMadeError, the tool's word that nothing was written, clears the intent.
   */
  settleLate(late: LateOutcome): void;
}

export function writeAttempt(
  writes: WriteLog,
  write: { key: string; tool: string; input: unknown; decision: Decision; run: RunState },
): WriteAttempt {
  const { key, tool, input, decision, run } = write;
  const at = () => new Date(run.clock.now()).toISOString();
  const step = run.step;
  const done = (output: string) =>
    writes.record({ key, tool, input, output, decision, step, at: at() });
  const failed = () => writes.failed(key, at());
  return {
    intend: () => writes.intend({ key, tool, input, decision, step, at: at() }),
    done,
    failed,
    notRun: () => writes.failed(key, at(), 'run_cancelled'),
    settleLate(late) {
      void late
        .then((outcome) => {
          if (outcome.kind === 'failed') return outcome.notMade ? failed() : undefined;
          const text = resultText(outcome.value);
          return done(text.ok ? text.text : `(the write was made, but ${text.reason})`);
        })
        // Nobody waits for a late outcome; if it cannot be logged the intent stays unresolved.
        .catch(() => undefined);
    },
  };
}

/** How a write that outlived its deadline, or failed once the run was cancelled, ends. */
export interface StoppedWrite {
  decision: Extract<Decision, 'timeout' | 'outcome_unknown' | 'cancelled'>;
  content: string;
  /** It said it wrote nothing, and its intent was cleared (`fatal`: clearing it failed). */
  notMade?: true;
  fatal?: string;
}

/**
 * A logged write that timed out, or failed after its signal aborted with the run's (undefined
 * for any other execution): it may have written before it was stopped, so its intent stays for
 * a human, unless the tool throws a WriteNotMadeError. At a timeout that error counts when it
 * settles before the event loop's next turn (a tool that stops on its signal before sending); a
 * later one is logged by `settleLate`, after the model was told that the outcome is unknown.
 */
export async function stoppedWrite(
  tool: string,
  attempt: WriteAttempt,
  executed: Executed,
  writeKey: string | undefined,
): Promise<StoppedWrite | undefined> {
  if (executed.kind !== 'timeout' && (executed.kind !== 'failed' || !executed.stopped)) {
    return undefined;
  }
  const timedOut = executed.kind === 'timeout';
  const notMade = timedOut ? await notMadeAtDeadline(executed.late) : executed.notMade;
  if (!notMade) {
    if (!timedOut) return { decision: 'outcome_unknown', content: stoppedWriteMessage(tool) };
    attempt.settleLate(executed.late);
    return { decision: 'timeout', content: timedOutMessage(tool, executed.ms, true) };
  }
  const problem = await logged(() => attempt.failed());
  const stopped = timedOut
    ? `${tool} timed out after ${executed.ms} ms and was cancelled`
    : `${tool} was stopped because the run was cancelled`;
  const next = timedOut
    ? 'The downstream system is not responding: do not retry now; tell the user and suggest trying again later.'
    : 'If it is still needed when the run goes on, call it again.';
  return {
    decision: timedOut ? 'timeout' : 'cancelled',
    content: `${stopped}; it did not take effect: the tool reported that nothing was written. ${next}`,
    ...(problem === undefined
      ? { notMade: true }
      : {
          fatal: `${tool} reported that it wrote nothing, and the write log could not record that write ${writeKey} did not take effect: ${problem}; it is left with an unknown outcome for a human to resolve`,
        }),
  };
}

/** The late outcome, when it settles before the event loop's next turn, says nothing was written. */
async function notMadeAtDeadline(late: LateOutcome): Promise<boolean> {
  const nextTurn = new Promise<undefined>((resolve) => setImmediate(resolve, undefined));
  const outcome = await Promise.race([late, nextTurn]);
  return outcome?.kind === 'failed' && outcome.notMade === true;
}

/**
 * The tool_result of a call that timed out. A write the write log keeps (`logged`) may have
 * happened, so it must not be retried.
 */
export function timedOutMessage(tool: string, ms: number, logged: boolean): string {
  if (!logged)
    return `${tool} timed out after ${ms} ms and was cancelled; the downstream system is not responding. Do not retry now; tell the user and suggest trying again later.`;
  return `${tool} timed out after ${ms} ms and was cancelled, but it may already have taken effect: its outcome is unknown. It will not be run again without a human's decision, so do not retry it. Tell the user that a human will check whether it went through.`;
}

/** The tool_result of a write that failed after the run was cancelled: it may have happened. */
export function stoppedWriteMessage(tool: string): string {
  return `${tool} was stopped because the run was cancelled, but it may already have taken effect: its outcome is unknown. It will not be run again without a human's decision, so do not retry it. Tell the user that a human will check whether it went through.`;
}

/** The tool_result of a write whose earlier attempt has no recorded outcome. */
export function unknownOutcomeMessage(tool: string, intent: WriteIntent): string {
  return `${tool} with these arguments was already started in this run (step ${intent.step}) and its outcome is unknown: it timed out or the run was interrupted. It was not run again, so that it cannot happen twice. A human must check whether it took effect; tell the user that a human will follow up.`;
}
