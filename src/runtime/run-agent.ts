import { randomUUID } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import type { ModelClient } from '../model-api/model-client.js';
import type { Harness } from './harness.js';
import { hookTimeoutMs } from './hook-deadline.js';
import { checkRunId, type JournalStore } from './journal/journal-store.js';
import { startRunJournal } from './journal/run-journal.js';
import { withRunLock } from './journal/with-run-lock.js';
import type { RunResult } from './run-end.js';
import { type RoleModels, runLoop } from './run-loop.js';
import type { TraceSink } from './trace.js';
import { type GuardedTrace, guardTrace, traceNotStarted } from './trace-guard.js';
import type { Approver, RunMode } from './types.js';

export type { PendingApproval } from './approval-value.js';
export type { RunResult } from './run-end.js';
export type { RoleModels } from './run-loop.js';

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
   * Keep the run's journal here, so that `resumeAgent` can continue it after a crash, a
   * cancel or a pause for approval, and a write is never made twice (durable runs). Without
   * one the run is kept in memory only (eval trials): no lock, no file, no write-ahead intents.
   */
  journals?: JournalStore;
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
  // A bad hook deadline is refused before the run has a lock, a trace or a journal.
  hookTimeoutMs(options.harness.hooks);
  if (options.journals) checkRunId(runId);
  // A failed trace write never escapes half-way through a step: the loop ends the run with it.
  const trace = guardTrace(options.trace);
  // One process per run: the lock is held from before the journal is made to the end.
  return withRunLock(options.journals, runId, trace, () => startRun(options, runId, trace));
}

async function startRun(
  options: RunAgentOptions,
  runId: string,
  trace: GuardedTrace,
): Promise<RunResult> {
  const { harness, clock } = options;
  const system = harness.system({ clock, mode: options.mode });
  trace.write({
    type: 'run_start',
    run_id: runId,
    ...(options.task && { task: options.task }),
    variant: harness.name,
    model: options.modelId,
    mode: options.mode,
    system_chars: system.length,
    ts: new Date(clock.now()).toISOString(),
  });
  // Nothing is done yet: a run whose first events cannot be written does not start.
  const failure = await trace.failure();
  if (failure) throw traceNotStarted(failure);
  const journal = await startRunJournal(
    {
      type: 'run_started',
      runId,
      variant: harness.name,
      model: options.modelId,
      mode: options.mode,
      ...(options.task && { task: options.task }),
      prompt: options.prompt,
      system,
    },
    { now: () => clock.now(), store: options.journals },
  );
  return runLoop({ ...options, trace, journal });
}
