import type { TrialRecord } from '../spec/trial-record.js';
import { trialLabel } from './format.js';
import { byTrial } from './trial-lists.js';

/**
 * A judge that gave no usable verdict (no tool call, another tool, a malformed verdict, a
 * refusal, an API error) on any trial fails the gate, whatever the agent's own checks said:
 * the measurement is broken, not the agent. One reason, naming the trials.
 */
export function judgeErrorReasons(records: readonly TrialRecord[]): string[] {
  const trials = records
    .filter((record) => record.judgments?.some((judgment) => judgment.verdict === 'error'))
    .sort(byTrial)
    .map(trialLabel);
  if (trials.length === 0) return [];
  const plural = trials.length === 1 ? '' : 's';
  return [
    `${trials.length} trial${plural} with a judge error (the judge gave no usable verdict; see the judge errors): ${trials.join(', ')}`,
  ];
}
