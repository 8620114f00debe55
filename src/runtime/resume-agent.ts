import type { Clock } from '../core/clock.js';
import { type Checkpoint, CheckpointError } from './checkpoint.js';
import { type CheckpointStore, unknownRunError } from './checkpoint-store.js';
import type { Harness } from './harness.js';
import { hookTimeoutMs } from './hook-deadline.js';
import {
  createWriteLog,
  type WriteIntent,
  type WriteLogEntry,
  type WriteRecord,
  type WriteResolution,
} from './idempotency.js';
import type { ModelClient } from './model-client.js';
import { withRunLock } from './run-lock.js';
import { type ApprovalDecisions, type RoleModels, type RunResult, runLoop } from './run-loop.js';
import { fromCheckpoint } from './run-snapshot.js';
import { serialApprover } from './serial-approver.js';
import type { TraceSink } from './trace.js';
import { type GuardedTrace, guardTrace, reportedEnd } from './trace-guard.js';
import type { Approver } from './types.js';

export interface ResumeAgentOptions {
  runId: string;
  checkpoints: CheckpointStore;
  /** The same variant the run started with (checked against the checkpoint). */
  harness: Harness;
  model: ModelClient;
  /** Default: the model the run started with. */
  modelId?: string;
  clock: Clock;
  /** Asked for new `ask` calls, and for paused ones that `approvals` does not answer. */
  approver?: Approver;
  /** Answers for the calls a paused run waits on: one for all, or per tool_use id. */
  approvals?: ApprovalDecisions;
  trace?: TraceSink;
  signal?: AbortSignal;
  roleModels?: RoleModels;
  /**
   * A human's decision per write key whose outcome is unknown (it timed out or the run was
   * interrupted): `done` (it took effect; never run it again) or `retry` (it did not; the next
   * identical call may run it). Recorded in the write log before the run continues.
   */
  resolveWrites?: Readonly<Record<string, WriteResolution>>;
}

/**
 * Continue a run from its last checkpoint: after its last completed step, or at the calls it
 * paused on for approval. A finished run returns its recorded result without calling the model
 * (resuming is idempotent). Writes the run already made are answered from its write log.
 *
 * @example
 * const result = await resumeAgent({ runId, checkpoints, harness, model, clock, approvals: true });
 */
export async function resumeAgent(options: ResumeAgentOptions): Promise<RunResult> {
  // A bad hook deadline is refused before the run is locked or its write log touched.
  hookTimeoutMs(options.harness.hooks);
  // A failed trace write never escapes: the loop ends the run with it before its next step.
  const trace = guardTrace(options.trace);
  // One process per run: a second resume of the same run fails fast instead of writing twice.
  return withRunLock(options.checkpoints, options.runId, trace, () => resumeLocked(options, trace));
}

async function resumeLocked(options: ResumeAgentOptions, trace: GuardedTrace): Promise<RunResult> {
  const { checkpoints, runId, harness, clock } = options;
  const checkpoint = await checkpoints.load(runId);
  if (!checkpoint) throw await unknownRunError(checkpoints, runId);
  if (checkpoint.runId !== runId) {
    throw new CheckpointError(
      'checkpoint_corrupt',
      `${checkpoints.describe(runId)} holds run '${checkpoint.runId}', not '${runId}'; the file was renamed or copied. Rename it back or start a new run.`,
    );
  }
  if (checkpoint.variant !== harness.name) {
    throw new CheckpointError(
      'checkpoint_conflict',
      `run '${runId}' was started with the '${checkpoint.variant}' harness; resume it with the same one (not '${harness.name}')`,
    );
  }
  const logged = await checkpoints.loadWrites(runId);
  const writes = createWriteLog(mergeWrites(logged, checkpoint.writes as WriteRecord[]), (record) =>
    checkpoints.appendWrite(runId, record),
  );
  if (options.resolveWrites) {
    const ts = new Date(clock.now()).toISOString();
    await writes.resolve(options.resolveWrites, ts);
    for (const [key, resolution] of Object.entries(options.resolveWrites)) {
      trace.write({ type: 'write_resolved', key, resolution, ts });
    }
  }
  trace.write({
    type: 'run_resume',
    run_id: runId,
    step: checkpoint.step,
    state: checkpoint.state,
    ts: new Date(clock.now()).toISOString(),
  });
  if (checkpoint.state === 'finished') {
    const result = finishedResult(checkpoint, writes.list(), writes.unresolvedList());
    const { status, detail } = await reportedEnd(
      trace,
      { runId, resumable: true },
      result.status,
      result.detail,
    );
    return { ...result, status, ...(detail !== undefined && { detail }) };
  }

  return runLoop(fromCheckpoint(checkpoint), {
    harness,
    model: options.model,
    modelId: options.modelId ?? checkpoint.model,
    clock,
    mode: checkpoint.mode,
    // One question at a time, whoever wrote the approver: the calls of a turn run in parallel.
    approver: options.approver && serialApprover(options.approver),
    approvals: options.approvals,
    trace,
    signal: options.signal,
    checkpoints,
    writes,
    roleModels: options.roleModels,
  });
}

/** The log is the later record; the checkpoint's copy covers a log that was lost or pruned. */
function mergeWrites(logged: WriteLogEntry[], saved: WriteRecord[]): WriteLogEntry[] {
  const keys = new Set(logged.map((record) => record.key));
  return [...saved.filter((record) => !keys.has(record.key)), ...logged];
}

function finishedResult(
  checkpoint: Checkpoint,
  writes: readonly WriteRecord[],
  unresolved: readonly WriteIntent[],
): RunResult {
  const state = fromCheckpoint(checkpoint);
  const result = checkpoint.result!;
  return {
    runId: checkpoint.runId,
    status: result.status,
    ...(result.detail !== undefined && { detail: result.detail }),
    answer: result.answer,
    messages: state.messages,
    toolCalls: state.history,
    stats: state.stats,
    store: state.store,
    writes,
    ...(unresolved.length > 0 && { unresolvedWrites: unresolved }),
  };
}
