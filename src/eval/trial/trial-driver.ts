import { join } from 'node:path';
import type { Provider } from '../../adapters/types.js';
import type { VirtualClock } from '../../core/clock.js';
import { ConfigError } from '../../core/errors.js';
import type { RunResult } from '../../runtime/run-agent.js';
import type { TraceEvent } from '../../runtime/trace.js';
import type { EvalCase } from '../spec/cases.js';
import type { EvalSettings } from '../spec/settings.js';
import type { TaskDefinition } from '../spec/task-definition.js';

/** One trial to run: a task's variant, its trial number (of its case, for a dataset task), and the run's settings. */
export interface TrialRequest {
  task: TaskDefinition;
  variant: string;
  trial: number;
  settings: EvalSettings;
  /** The dataset case, for a task over `cases`. */
  testCase?: EvalCase;
}

/** What the agent is asked: the task's prompt, or its case's (its input, or `prompt(case)`). */
export function promptOf({ task, testCase }: Pick<TrialRequest, 'task' | 'testCase'>): string {
  if (typeof task.prompt === 'function') {
    if (!testCase)
      throw new ConfigError(
        `task '${task.id}': prompt is a function of a case, and the task has no cases`,
      );
    return task.prompt(testCase);
  }
  return testCase ? String(testCase.input) : (task.prompt ?? '');
}

/** What one trial run needs from the session it runs in (replay or record). */
export interface DriveOptions {
  /** The session's fetch (msw), already wrapped for the upstream when recording. */
  fetch: typeof fetch;
  baseURL: string;
  apiKey: string;
  modelId: string;
  /** The run's virtual clock, started at the cassette's (or the recording's) "now". */
  clock: VirtualClock;
  /** Replay: the cassette's first response was SSE. */
  stream?: boolean;
  /** Record: the measured latency of each model call (the clock advances by it too). */
  latencies?: number[];
  /**
   * Record: the latency of each call answered so far as the cassette keeps them, retried
   * attempts folded: what a replay of the recording counts (RecordSession.exchangeLatencies).
   */
  answeredLatencies?: () => Promise<number[]>;
}

/**
 * How a trial drives its agent: this runtime's loop (runAgent) or an adapter around any other
 * agent. Record and replay are the same for both: HTTP through the session's fetch.
 */
export interface TrialDriver {
  provider: Provider;
  /** JSONL trace of the run, when the driver writes one. */
  tracePath?: string;
  /** The events of the last run's trace, as written to `tracePath`. */
  traceEvents?(): readonly TraceEvent[];
  drive(options: DriveOptions): Promise<RunResult>;
  dispose?(): void | Promise<void>;
}

/** runs/eval/<task>/<variant>/[<case>/]trial-<n>.jsonl: where a driver writes the trial's trace. */
export function tracePathOf({ task, variant, trial, settings, testCase }: TrialRequest): string {
  return join(
    settings.runsDir,
    task.id,
    variant,
    ...(testCase ? [testCase.id] : []),
    `trial-${trial}.jsonl`,
  );
}

/** The run id in the trial's trace. */
export function runIdOf({ task, variant, trial, testCase }: TrialRequest): string {
  return `${task.id}-${variant}${testCase ? `-${testCase.id}` : ''}-${trial}`;
}
