import { redactText } from '../core/redact.js';
import { keptAtRest, type WriteLog } from './idempotency.js';
import type { ToolOutcome } from './pipeline.js';
import type { NotMadeAnswer, PendingApproval } from './run-snapshot.js';
import type { ToolCall } from './types.js';

/**
 * What a batch that pauses for approval made, by tool_use id, and what resume may answer from
 * the write log without asking the gates again. An id is trusted only when it names exactly one
 * call of the batch: with two calls under one id, the write one made would answer the other,
 * which never ran, and skip its approval. Such calls pass their gates again on resume; the write
 * log still keeps each write from running twice (it is keyed by arguments, not by id). So do
 * calls whose id the redaction at rest changes (`call-4111111111111111`): a checkpoint masks
 * the ids in its calls (values) but not those in `made` (keys), which would then match none.
 * A write that ran and did not take effect is kept with its answer (`notMade`) and its write
 * key: the log would let it run again. So is a write that timed out. Resume then answers each by
 * what the log says now (pausedCallAnswer): a human's retry runs it, a human's done or a late
 * success gives the result, and otherwise the kept answer. Those are kept under the id as
 * masked at rest, as a human's answers are, and trusted only where that masked id names one
 * call; a failed write under a shared id runs again on resume (the model never saw its failure).
 */

/**
 * The batch's writes that may have run (made or started) before it paused: their write keys. Not
 * a write the run was cancelled before (`cancelled` without a `notMade`): it never ran, its
 * intent was cleared, and resume runs it as any call that did not run.
 */
function madeWrites(
  calls: readonly ToolCall[],
  outcomes: readonly ToolOutcome[],
): Record<string, string> | undefined {
  const single = singleIds(calls.map(({ id }) => id));
  const made = outcomes.flatMap(({ record, deferred, writeKey, notMade }) =>
    deferred === undefined &&
    writeKey !== undefined &&
    (record.decision !== 'cancelled' || notMade) &&
    single.has(record.id) &&
    keptAtRest(record.id)
      ? [[record.id, writeKey] as const]
      : [],
  );
  return made.length > 0 ? Object.fromEntries(made) : undefined;
}

/** What the pipeline that runs a paused batch again answers without running (pipeline options). */
export function resumedBatch(pending: PendingApproval): {
  madeBeforePause: Map<string, string>;
  notMadeBeforePause: Map<string, NotMadeAnswer>;
} {
  return {
    madeBeforePause: madeBeforePause(pending),
    notMadeBeforePause: notMadeBeforePause(pending),
  };
}

/** The write keys resume answers from the log, by tool_use id: only ids of one paused call. */
function madeBeforePause(pending: PendingApproval): Map<string, string> {
  const single = singleIds(pending.calls.map(({ id }) => id));
  return new Map(Object.entries(pending.made ?? {}).filter(([id]) => single.has(id)));
}

/** How resume answers a call of the paused batch without running it; undefined: it runs. */
export type PausedCallAnswer =
  | { kind: 'log'; key: string }
  | {
      kind: 'answer';
      decision: NotMadeAnswer['decision'] | 'outcome_unknown';
      content: string;
      notMade?: true;
      /** Its write key, kept again if the resumed batch pauses again. */
      key?: string;
    };

/**
 * What resume does with a call of the paused batch that reached the write log before the pause
 * (`made`: its write key) or that ran and did not take effect (`notMade`: its answer then), by
 * what the write log says now:
 * - an outcome (made, a late success, a human's "done"): the log's answer, if it is this tool's;
 * - an intent still open: the kept answer, else the log's unknown outcome;
 * - cleared because the run was cancelled before it started, or because a human said retry:
 *   it runs, through its gates;
 * - cleared because its tool said it did not take effect: the kept answer, else that text; it
 *   is not run again, which the model never asked for, and the model may call it again;
 * - nothing (a lost or pruned log, or one without `cleared`): the kept answer, else an unknown
 *   outcome for a human, never an invitation to run it again.
 * A call in neither list runs, as does one whose log entry is another tool's.
 */
export function pausedCallAnswer(
  call: { id: string; tool: string },
  resumed: {
    madeBeforePause?: ReadonlyMap<string, string> | undefined;
    notMadeBeforePause?: ReadonlyMap<string, NotMadeAnswer> | undefined;
    writes?: WriteLog | undefined;
  },
): PausedCallAnswer | undefined {
  const { id, tool } = call;
  const { madeBeforePause: made, notMadeBeforePause: notMade, writes } = resumed;
  const answer = notMadeAnswerOf(id, tool, notMade);
  const key = made?.get(id) ?? answer?.key;
  const kept: PausedCallAnswer | undefined = answer && {
    kind: 'answer',
    decision: answer.decision,
    content: answer.content,
    notMade: true,
    ...(key !== undefined && { key }),
  };
  if (key === undefined || writes === undefined) return kept;
  const entry = writes.get(key) ?? writes.unresolved(key);
  if (entry !== undefined) {
    if (entry.tool !== tool) return kept;
    return 'kind' in entry ? (kept ?? { kind: 'log', key }) : { kind: 'log', key };
  }
  const reason = writes.cleared?.(key);
  if (reason === 'human_retry' || reason === 'run_cancelled') return undefined;
  if (kept) return kept;
  return reason === 'tool_failed'
    ? {
        kind: 'answer',
        key,
        notMade: true,
        decision: 'failed',
        content: `${tool} did not take effect before the run paused for approval; it was not run again when the run resumed. Call it again if it is still needed.`,
      }
    : {
        kind: 'answer',
        key,
        decision: 'outcome_unknown',
        content: `${tool} was started before the run paused for approval, and the write log no longer says how it ended, so it was not run again: its outcome is unknown. Do not retry it; tell the user a human will check whether it took effect.`,
      };
}

/**
 * A batch that waits for a human: its calls, those deferred as requests, the answers given
 * (by id as kept at rest), and what its writes did (`ranBeforePause`), for resume.
 */
export function pausedBatch(
  step: number,
  calls: readonly ToolCall[],
  outcomes: readonly ToolOutcome[],
  answers: ReadonlyMap<string, boolean>,
  earlier?: Pick<PendingApproval, 'made' | 'notMade'>,
): PendingApproval {
  const requests = outcomes.flatMap(({ record, deferred }) =>
    deferred === undefined
      ? []
      : [{ id: record.id, tool: record.tool, input: record.input, reason: deferred }],
  );
  const answered = Object.fromEntries(answers);
  return {
    step,
    calls: [...calls],
    requests,
    answers: answered,
    ...ranBeforePause(calls, outcomes, earlier),
  };
}

/**
 * What a batch that pauses keeps of the writes it ran, for resume: those that may have written
 * (`made`, answered from the write log) and those that did not take effect (`notMade`, answered
 * with their failure, which the write log would not stop from running again). A cancelled
 * resume adds what it ran to what the batch kept before (`earlier`).
 */
export function ranBeforePause(
  calls: readonly ToolCall[],
  outcomes: readonly ToolOutcome[],
  earlier?: Pick<PendingApproval, 'made' | 'notMade'>,
): Pick<PendingApproval, 'made' | 'notMade'> {
  const made = madeWrites(calls, outcomes);
  const notMade = notMadeWrites(calls, outcomes);
  return {
    ...((earlier?.made || made) && { made: { ...earlier?.made, ...made } }),
    ...((earlier?.notMade || notMade) && { notMade: { ...earlier?.notMade, ...notMade } }),
  };
}

/**
 * The batch's writes that ran and did not take effect, and those that timed out: their answers,
 * by tool_use id as the checkpoint keeps it (redacted, as its calls are), only for ids that name
 * one call there, each with its write key. A timed-out write keeps the answer the model would
 * have read (its outcome is unknown): a late WriteNotMadeError, which clears its intent, must
 * not run it again.
 */
function notMadeWrites(
  calls: readonly ToolCall[],
  outcomes: readonly ToolOutcome[],
): Record<string, NotMadeAnswer> | undefined {
  const single = singleIds(calls.map(({ id }) => redactText(id)));
  const kept = outcomes.flatMap(({ record, result, notMade, writeKey }) => {
    const id = redactText(record.id);
    const { decision } = record;
    const timedOut = decision === 'timeout' && record.effect === 'write';
    if (!(notMade || timedOut) || !single.has(id)) return [];
    if (decision !== 'failed' && decision !== 'timeout' && decision !== 'cancelled') return [];
    const answer = { tool: record.tool, decision, content: result.content };
    return [[id, writeKey === undefined ? answer : { ...answer, key: writeKey }] as const];
  });
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

/** The answers resume gives the batch's writes that did not take effect: ids of one paused call. */
function notMadeBeforePause(pending: PendingApproval): Map<string, NotMadeAnswer> {
  const single = singleIds(pending.calls.map(({ id }) => redactText(id)));
  return new Map(Object.entries(pending.notMade ?? {}).filter(([id]) => single.has(id)));
}

/** The answer kept for a call that ran before the pause and did not take effect, when of this tool. */
export function notMadeAnswerOf(
  id: string,
  tool: string,
  notMade: ReadonlyMap<string, NotMadeAnswer> | undefined,
): NotMadeAnswer | undefined {
  const answer = notMade?.get(redactText(id));
  return answer?.tool === tool ? answer : undefined;
}

/**
 * Keep a human's answer to a call under the id as the checkpoint holds it: redacted at rest like
 * its calls (values), which its answers (keys) are not. Where answers meet under one id (a call's
 * twin, or two ids with one masked form), a "no" wins: a dropped "no" is a yes under `--approve`.
 */
export function keepAnswer(answers: Map<string, boolean>, id: string, answer: boolean): void {
  const key = redactText(id);
  if (answers.get(key) !== false) answers.set(key, answer);
}

/** Answers by tool_use id, to look up with `batchAnswers` (older checkpoints kept unmasked ids). */
export function answersOf(byId: Record<string, boolean>): Map<string, boolean> {
  const answers = new Map<string, boolean>();
  for (const [id, answer] of Object.entries(byId)) keepAnswer(answers, id, answer);
  return answers;
}

/**
 * The answer kept for a call of one paused batch, by its id before or after the redaction at
 * rest. A "yes" counts only when its id (as stored at rest) names one call of the batch. Where two calls meet under one id, the yes may have been
 * given to the other (the human approved A and said "later" to B): that call is asked again.
 * A "no" counts for both.
 */
export function batchAnswers(
  calls: readonly ToolCall[],
): (answers: ReadonlyMap<string, boolean> | undefined, id: string) => boolean | undefined {
  const single = singleIds(calls.map(({ id }) => redactText(id)));
  return (answers, id) => {
    const stored = redactText(id);
    const answer = answers?.get(stored);
    return answer === false || single.has(stored) ? answer : undefined;
  };
}

/** The ids that occur once. */
function singleIds(ids: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const id of ids) (seen.has(id) ? shared : seen).add(id);
  return new Set([...seen].filter((id) => !shared.has(id)));
}
