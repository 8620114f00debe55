import { randomUUID } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import { CheckpointError } from './checkpoint.js';
import { type CheckpointStore, checkRunId } from './checkpoint-store.js';
import type { Harness } from './harness.js';
import { hookTimeoutMs } from './hook-deadline.js';
import { createWriteLog } from './idempotency.js';
import type { ModelClient } from './model-client.js';
import { withRunLock } from './run-lock.js';
import { type RoleModels, type RunResult, runLoop } from './run-loop.js';
import { type LoopState, toCheckpoint } from './run-snapshot.js';
import { serialApprover } from './serial-approver.js';
import { emptyStats } from './stop-rules.js';
import type { TraceSink } from './trace.js';
import { type GuardedTrace, guardTrace, traceNotStarted } from './trace-guard.js';
import type { Approver, RunMode } from './types.js';

export type { ApprovalDecisions, RoleModels, RunResult } from './run-loop.js';

export interface RunAgentOptions {
  harness: Harness;
  model: ModelClient;
  modelId: string;
  prompt: string;
  clock: Clock;
  mode: RunMode;
  approver?: Approver;
  trace?: TraceSink;
  runId?: string;
  /** Labels the trace (e.g. the eval task id). */
  task?: string;
  signal?: AbortSignal;
  /**
   * Save the run after every completed step and log every executed write, so that
   * `resumeAgent` can continue it after a crash or a pause for approval.
   */
  checkpoints?: CheckpointStore;
  /** Models for other roles, e.g. `{ summarize: 'claude-haiku-5' }` for trimmed history. */
  roleModels?: RoleModels;
}

/**
 * Run one task: call the model, run its tool calls through the pipeline, send the
 * results back, until the model ends its turn or a stop condition fires.
 *
 * @example
 * const result = await runAgent({ harness: upgraded, model, modelId, prompt, clock, mode: 'unattended' });
 */
export async function runAgent(options: RunAgentOptions): Promise<RunResult> {
  const runId = options.runId ?? randomUUID();
  // A bad hook deadline is refused before the run has a lock, a trace or a checkpoint.
  hookTimeoutMs(options.harness.hooks);
  // A failed trace write never escapes half-way through a step: the loop ends the run with it.
  const trace = guardTrace(options.trace);
  // One process per run: the lock is held from before the first checkpoint to the end.
  return withRunLock(options.checkpoints, runId, trace, () => startRun(options, runId, trace));
}

async function startRun(
  options: RunAgentOptions,
  runId: string,
  trace: GuardedTrace,
): Promise<RunResult> {
  const { harness, clock, checkpoints } = options;
  const systemText = harness.system({ clock, mode: options.mode });
  const state: LoopState = {
    runId,
    prompt: options.prompt,
    task: options.task,
    systemText,
    createdAt: new Date(clock.now()).toISOString(),
    step: 0,
    messages: [{ role: 'user', content: options.prompt }],
    history: [],
    errorTexts: [],
    stats: emptyStats(),
    store: new Map<string, unknown>(),
    summary: undefined,
    pending: undefined,
  };

  let writes: ReturnType<typeof createWriteLog> | undefined;
  if (checkpoints) {
    checkRunId(runId);
    if ((await checkpoints.load(runId)) !== undefined) {
      throw new CheckpointError(
        'checkpoint_conflict',
        `run '${runId}' already has a checkpoint (${checkpoints.describe(runId)}): another run uses this id; start the new run under another id`,
      );
    }
    writes = createWriteLog(await checkpoints.loadWrites(runId), (record) =>
      checkpoints.appendWrite(runId, record),
    );
  }

  trace.write({
    type: 'run_start',
    run_id: runId,
    ...(options.task && { task: options.task }),
    variant: harness.name,
    model: options.modelId,
    mode: options.mode,
    system_chars: systemText.length,
    ts: new Date(clock.now()).toISOString(),
  });
  // Nothing is done yet: a run whose first events cannot be written does not start.
  const failure = await trace.failure();
  if (failure) throw traceNotStarted(failure);
  // Step 0: a crash during the first model call resumes with the same prompt and system text.
  await checkpoints?.save(
    toCheckpoint(state, {
      variant: harness.name,
      model: options.modelId,
      mode: options.mode,
      writes: [],
      now: clock.now(),
    }),
  );

  return runLoop(state, {
    harness,
    model: options.model,
    modelId: options.modelId,
    clock,
    mode: options.mode,
    // One question at a time, whoever wrote the approver: the calls of a turn run in parallel.
    approver: options.approver && serialApprover(options.approver),
    trace,
    signal: options.signal,
    checkpoints,
    writes,
    roleModels: options.roleModels,
  });
}
