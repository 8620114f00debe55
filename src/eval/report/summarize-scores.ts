import type { TrialRecord } from '../spec/trial-record.js';
import { wilsonScore } from '../stats/wilson.js';
import type { ScoreSummary } from './grader-schema.js';
import { compareNames } from './order.js';

/**
 * Each score's mean over the counted trials of one row, with a 95% interval. The interval is
 * Wilson's at the mean with n trials: a score in [0, 1] with mean m varies at most m(1 - m),
 * as a pass/fail with that rate would, so the interval is never narrower than the scores'
 * own spread allows at that n (three trials of 0.80 give [0.44, 0.95], not [0.80, 0.80]).
 * Undefined when no counted trial has a score.
 */
export function summarizeScores(counted: readonly TrialRecord[]): ScoreSummary[] | undefined {
  const byName = new Map<
    string,
    { source: ScoreSummary['source']; values: number[]; passed: number; threshold: number }
  >();
  for (const record of counted) {
    for (const score of record.scores ?? []) {
      // A judged check and a check's own score may share a name: they are two scores.
      const key = JSON.stringify([score.name, score.source]);
      const entry = byName.get(key) ?? {
        source: score.source,
        values: [],
        passed: 0,
        threshold: score.threshold,
      };
      entry.values.push(score.value);
      if (score.passed) entry.passed += 1;
      byName.set(key, entry);
    }
  }
  if (byName.size === 0) return undefined;
  return [...byName.entries()]
    .sort(([left], [right]) => compareNames(left, right))
    .map(([key, entry]) => {
      const [name] = JSON.parse(key) as [string];
      const n = entry.values.length;
      const mean = entry.values.reduce((sum, value) => sum + value, 0) / n;
      return {
        name,
        source: entry.source,
        n,
        mean,
        interval: wilsonScore(mean, n),
        threshold: entry.threshold,
        passed: entry.passed,
      };
    });
}
