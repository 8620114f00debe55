import type Anthropic from '@anthropic-ai/sdk';
import type { Clock } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import { approvalHash, type PendingApproval } from './approval-value.js';
import type { FactOf } from './journal/records.js';
import type { RunJournal } from './journal/run-journal.js';
import { countCall, type RunView, toCallRecord, type WriteState } from './journal/run-view.js';
import { type GuardedTrace, reportedEnd } from './trace-guard.js';
import type { RunStats, RunStatus, ToolCallRecord } from './types.js';

export interface RunResult {
  runId: string;
  status: RunStatus;
  /** Why the run stopped, when it was not `done`. */
  detail?: string;
  /** The text of the model's final message ('' when the run stopped early). */
  answer: string;
  messages: Anthropic.MessageParam[];
  toolCalls: ToolCallRecord[];
  stats: RunStats;
  /** Per-run state the tools wrote (e.g. refund submissions). */
  store: Map<string, unknown>;
  /**
   * Durable runs: the writes whose outcome a human should hear of. `unknown` (or `intended`):
   * not known, resolve it (`--resolve-write KEY=done|retry`). `yes` / `no`: the model was told
   * the outcome was unknown, and the tool settled it since.
   */
  writes?: readonly WriteState[];
  /** The calls a human must approve or reject (whatever the status: a cancelled run lists them too). */
  pendingApprovals?: readonly PendingApproval[];
}

export interface RunEnding {
  journal: RunJournal;
  clock: Clock;
  trace?: GuardedTrace | undefined;
}

/**
 * Ends the run: a final status is appended (run_finished; `error` and `awaiting_approval` stay
 * resumable), the trace gets run_end, and the journal takes no more records.
 */
export async function endRun(
  context: RunEnding,
  status: RunStatus,
  answer: string,
  detail?: string,
  /** Results of the open step the journal could not take (it failed): reported all the same. */
  unrecorded: readonly FactOf<'result'>[] = [],
): Promise<RunResult> {
  const { journal, trace } = context;
  const { view } = journal;
  let ended = { status, detail };
  if (status !== 'error' && status !== 'awaiting_approval' && !view.finished) {
    try {
      await journal.append({
        type: 'run_finished',
        status,
        answer,
        ...(detail !== undefined && { detail }),
      });
    } catch (error) {
      ended = { status: 'error', detail: errorMessage(error) };
    }
  }
  view.stats.steps = view.step;
  // Listed whatever the status: only a listed call can be approved (by its hash).
  const pending = pendingApprovals(view);
  for (const { id: _id, ...request } of pending) {
    trace?.write({
      type: 'approval_pending',
      step: view.step,
      ...request,
      input: request.input ?? null,
    });
  }
  trace?.write({
    type: 'run_end',
    status: ended.status,
    ...(ended.detail && { detail: ended.detail }),
    stats: { ...view.stats },
    ts: new Date(context.clock.now()).toISOString(),
  });
  journal.close();
  // A run whose trace failed is reported as failed, whatever else it did.
  const reported = await reportedEnd(
    trace,
    { runId: view.started.runId, resumable: journal.durable },
    ended.status,
    ended.detail,
  );
  const shown = ended.status === 'error' ? '' : answer;
  return resultOf(journal, { ...reported, answer: shown }, pending, unrecorded);
}

function resultOf(
  journal: RunJournal,
  outcome: { status: RunStatus; detail: string | undefined; answer: string },
  pending: readonly PendingApproval[],
  unrecorded: readonly FactOf<'result'>[],
): RunResult {
  const { view, durable } = journal;
  const writes = [...view.writes.values()].filter(
    (write) => write.made === 'unknown' || write.made === 'intended' || write.toldUnknown,
  );
  // A run that ends mid-step (paused, cancelled, failed) reports the calls of it that ended too.
  const open = view.open;
  const ended = (open?.calls ?? []).flatMap((call, index) => {
    const result =
      open?.results[index] ??
      unrecorded.find((fact) => fact.index === index && fact.step === open?.step);
    return result ? [{ call, result: { ...result, seq: 0, at: '' } }] : [];
  });
  const stats = { ...view.stats };
  for (const { result } of ended) countCall(stats, result);
  return {
    runId: view.started.runId,
    status: outcome.status,
    ...(outcome.detail && { detail: outcome.detail }),
    answer: outcome.answer,
    messages: view.messages,
    toolCalls: [...view.history, ...ended.map(({ call, result }) => toCallRecord(call, result))],
    stats,
    store: view.store,
    ...(durable && writes.length > 0 && { writes }),
    ...(pending.length > 0 && { pendingApprovals: pending }),
  };
}

/** The calls of the open step whose latest answer is `later`: what the human is shown. */
export function pendingApprovals(view: RunView): PendingApproval[] {
  const open = view.open;
  if (!open) return [];
  return open.calls.flatMap((call, index) => {
    const approval = open.approvals[index];
    if (open.results[index] || approval?.answer !== 'later') return [];
    // An older journal kept no value: the model's arguments, which a resume checks again.
    const value = approval.value ?? { tool: call.name, input: call.input };
    return [
      {
        id: call.id,
        tool: value.tool,
        input: value.input,
        ...(value.key !== undefined && { key: value.key }),
        reason: approval.reason,
        hash: approval.hash ?? approvalHash(value),
        ...(approval.changed !== undefined && { changed: approval.changed }),
      },
    ];
  });
}
