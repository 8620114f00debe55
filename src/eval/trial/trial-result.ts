import type { RunResult } from '../../runtime/run-agent.js';
import type { TrialRecord } from '../spec/trial-record.js';
import type { TrialTranscript } from '../transcript/transcript-formats.js';

/** What running one trial gives: its record (the check's verdict comes later) and its run. */
export interface TrialResult {
  record: TrialRecord;
  run?: RunResult;
  /** An unexpected failure of the trial itself (not of the agent under test). */
  error?: unknown;
  /**
   * A replayed run's conversation, decoded from the cassette it replayed and the trace it
   * wrote: the HTML report's transcript, without reading both files again on the main thread.
   */
  transcript?: TrialTranscript;
  /** The agent's cassette was recorded by this trial (not replayed): its judge is recorded too. */
  recorded?: boolean;
}

/**
 * A run that finished, as the trial's result: its record (before the task's check), or an
 * errored trial when the run itself failed.
 */
export function finishedTrial(
  base: TrialRecord,
  result: RunResult,
  latencies: number[],
  meta: Partial<TrialRecord>,
): TrialResult {
  const record: TrialRecord = {
    ...base,
    ...meta,
    outcome: 'passed',
    status: result.status,
    stats: result.stats,
    modelLatenciesMs: latencies,
  };
  // A run that failed is no verdict, replayed as when recorded (where it keeps no cassette):
  // its check does not run, and the trial counts as errored.
  if (result.status === 'error') {
    const message = `the run ended with status error: ${result.detail ?? 'it gave no detail'}`;
    return {
      record: { ...record, outcome: 'errored', messages: [message] },
      error: new Error(message),
    };
  }
  return { record, run: result };
}
