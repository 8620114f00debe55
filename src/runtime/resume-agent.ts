import type { Clock } from '../core/clock.js';
import { ConfigError } from '../core/errors.js';
import type { ModelClient } from '../model-api/model-client.js';
import type { Harness } from './harness.js';
import { hookTimeoutMs } from './hook-deadline.js';
import type { JournalStore } from './journal/journal-store.js';
import { JournalError } from './journal/records.js';
import { createRunJournal, type RunJournal } from './journal/run-journal.js';
import { withRunLock } from './journal/with-run-lock.js';
import { pendingApprovals, type RunResult } from './run-end.js';
import { type RoleModels, runLoop } from './run-loop.js';
import type { TraceSink } from './trace.js';
import { type GuardedTrace, guardTrace } from './trace-guard.js';
import type { Approver } from './types.js';
import { interruptedMessage } from './write-call.js';

/** Answers for the calls a run lists as waiting: one for all listed, or per value hash. */
export type ApprovalDecisions = boolean | Record<string, boolean>;

/** What a human decided about a write whose outcome is unknown. */
export type WriteResolution = 'done' | 'retry';

export interface ResumeAgentOptions {
  runId: string;
  journals: JournalStore;
  /** The same variant the run started with (checked against the journal). */
  harness: Harness;
  model: ModelClient;
  /** Default: the model the run started with. */
  modelId?: string;
  clock: Clock;
  /** Asked for new `ask` calls, and for waiting ones that `approvals` does not answer. */
  approver?: Approver;
  /** Answers for the calls the run waits on (only those: their latest answer is `later`). */
  approvals?: ApprovalDecisions;
  trace?: TraceSink;
  signal?: AbortSignal;
  roleModels?: RoleModels;
  /**
   * A human's decision per write key whose outcome is unknown: `done` (it took effect; never run
   * it again) or `retry` (it did not; the next identical call may run it).
   */
  resolveWrites?: Readonly<Record<string, WriteResolution>>;
}

/**
 * Continue a run from its journal: a left fold of what it recorded, then the loop from there.
 * A finished run returns its recorded result without calling the model (resuming is
 * idempotent). Before anything else, a write that was running when the run stopped gets its
 * result: outcome unknown (R4). Then a human's decisions are recorded: write resolutions, and
 * answers for the calls shown as waiting.
 *
 * @example
 * const result = await resumeAgent({ runId, journals, harness, model, clock, approvals: true });
 */
export async function resumeAgent(options: ResumeAgentOptions): Promise<RunResult> {
  // A bad hook deadline is refused before the run is locked or its journal touched.
  hookTimeoutMs(options.harness.hooks);
  // A failed trace write never escapes: the loop ends the run with it before its next step.
  const trace = guardTrace(options.trace);
  // One process per run: a second resume of the same run fails fast instead of writing twice.
  return withRunLock(options.journals, options.runId, trace, () => resumeLocked(options, trace));
}

async function resumeLocked(options: ResumeAgentOptions, trace: GuardedTrace): Promise<RunResult> {
  const { journals, runId, harness, clock } = options;
  const opened = await journals.open(runId);
  const { started } = opened.view;
  if (started.variant !== harness.name) {
    throw new JournalError(
      'journal_conflict',
      `run '${runId}' was started with the '${started.variant}' harness; resume it with the same one (not '${harness.name}')`,
    );
  }
  const journal = createRunJournal(opened.view, { now: () => clock.now(), sink: opened.sink });
  checkDecisions(journal, options);
  await settleInterrupted(journal);
  await recordDecisions(journal, options, trace);
  trace.write({
    type: 'run_resume',
    run_id: runId,
    step: journal.view.step,
    state: journal.view.finished
      ? 'finished'
      : pendingApprovals(journal.view).length > 0
        ? 'awaiting_approval'
        : 'running',
    ts: new Date(clock.now()).toISOString(),
  });
  const modelId = options.modelId ?? started.model;
  return runLoop({ ...options, modelId, mode: started.mode, trace, journal });
}

/** R4: a write whose intent has no result was running when the run stopped: its outcome is unknown. */
async function settleInterrupted(journal: RunJournal): Promise<void> {
  const { open, writes } = journal.view;
  if (!open) return;
  for (const [index, key] of open.intents.entries()) {
    if (key === undefined || open.results[index] || writes.get(key)?.made !== 'intended') continue;
    await journal.append({
      type: 'result',
      step: open.step,
      index,
      decision: 'outcome_unknown',
      content: interruptedMessage(open.calls[index]!.name),
      isError: true,
      ms: 0,
      effect: 'write',
      write: { key, made: 'unknown' },
    });
  }
}

/** All or nothing: every key and call id is checked before the first decision is recorded. */
function checkDecisions(journal: RunJournal, options: ResumeAgentOptions): void {
  const waiting = [...journal.view.writes.values()].filter(
    (write) => write.made === 'unknown' || write.made === 'intended',
  );
  const unknown = Object.keys(options.resolveWrites ?? {}).filter(
    (key) => !waiting.some((write) => write.key === key),
  );
  if (unknown.length > 0) {
    throw new ConfigError(
      `no write with an unknown outcome has the key ${unknown.map((key) => `'${key}'`).join(', ')}; ${waiting.length === 0 ? 'no write of this run waits for a decision' : `writes waiting for a decision: ${waiting.map((write) => write.key).join(', ')}`} (nothing was recorded)`,
    );
  }
  const { approvals } = options;
  if (typeof approvals !== 'object') return;
  const shown = pendingApprovals(journal.view);
  const strays = Object.keys(approvals).filter((hash) => !shown.some((call) => call.hash === hash));
  if (strays.length > 0) {
    throw new ConfigError(
      `approvals name ${strays.map((hash) => `'${hash}'`).join(', ')}, which ${strays.length === 1 ? 'is' : 'are'} not waiting for approval; ${shown.length === 0 ? 'no call of this run waits for one' : `waiting: ${shown.map((call) => `${call.hash} (${call.tool})`).join(', ')}`} (nothing was recorded)`,
    );
  }
}

/** R5, R6: answers only for the calls listed as waiting; resolutions change a key, never a result. */
async function recordDecisions(
  journal: RunJournal,
  options: ResumeAgentOptions,
  trace: GuardedTrace,
): Promise<void> {
  const at = new Date(options.clock.now()).toISOString();
  for (const [key, resolution] of Object.entries(options.resolveWrites ?? {})) {
    await journal.append({
      type: 'resolved',
      key,
      made: resolution === 'done' ? 'yes' : 'no',
      by: 'human',
    });
    trace.write({ type: 'write_resolved', key, resolution, ts: at });
  }
  const { approvals } = options;
  if (approvals === undefined) return;
  const open = journal.view.open;
  for (const call of pendingApprovals(journal.view)) {
    const answer = typeof approvals === 'boolean' ? approvals : approvals[call.hash];
    if (answer === undefined || !open) continue;
    const index = open.calls.findIndex((each) => each.id === call.id);
    // Bound to the value listed: the call runs only if it still has this hash.
    const { tool, input, key, hash, reason } = call;
    await journal.append({
      type: 'approval',
      step: open.step,
      index,
      answer: answer ? 'yes' : 'no',
      reason,
      hash,
      value: { tool, input, ...(key !== undefined && { key }) },
    });
    // Said only once the answer is durable: a process killed before this line recorded nothing.
    trace.write({ type: 'approval_recorded', hash, tool, answer: answer ? 'yes' : 'no', ts: at });
  }
}
