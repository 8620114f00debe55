import { formatDelta } from './format.js';
import { formatInterval } from './format-interval.js';
import type { ComparisonEntry, VariantSummary } from './report-schema.js';

/** "same cassettes" or the drop test's verdict: "p = 0.500, noise; ~11 trials settle it". */
export function dropTestCell(entry: ComparisonEntry, alpha: number): string {
  if (entry.flag === 'new' || entry.flag === 'gone' || entry.flag === 'uncounted') return '';
  if (entry.cassettes === 'same') return 'same cassettes';
  const test = entry.dropTest;
  // Re-recorded, live, or another set of trials: a drop would be tested.
  if (!test) return 'cassettes differ';
  if (test.significant) return `p = ${test.pValue.toFixed(3)} ≤ ${alpha}: significant`;
  const settle =
    test.trialsToSettle === undefined ? '>1000 trials' : `~${test.trialsToSettle} trials`;
  return `p = ${test.pValue.toFixed(3)}: noise; ${settle} settle it`;
}

/** "refund-desk upgraded vs baseline (6 tasks, paired): Δ pass@1 +0.61 [+0.28, +0.89], distinguishable". */
export function suiteDeltaLine(row: VariantSummary): string {
  const delta = row.delta;
  if (!delta) return '';
  const verdict =
    delta.distinguishable === null
      ? ''
      : delta.distinguishable
        ? ', distinguishable'
        : ', not distinguishable at this n';
  return (
    `${row.suite} ${row.variant} vs ${delta.against} (${delta.tasks} task${delta.tasks === 1 ? '' : 's'}, paired): ` +
    `Δ pass@1 ${formatDelta(delta.passAt1)} ${formatInterval(delta.passAt1Interval, true)}${verdict}`
  );
}
