import { MAX_TRIALS_NEEDED } from '../stats/power.js';
import { formatDelta } from './format.js';
import { formatInterval } from './format-interval.js';
import type { ComparisonEntry, VariantSummary } from './report-schema.js';

/** "same cassettes" or the drop test's verdict: "p = 0.500, noise; ~11 trials settle it". */
export function dropTestCell(entry: ComparisonEntry, alpha: number, decision?: string): string {
  if (entry.flag === 'new' || entry.flag === 'gone' || entry.flag === 'uncounted') return '';
  if (entry.cassettes === 'same') return 'same cassettes';
  // Decided sequentially: the gate reads the decision, not the fixed-n test.
  if (decision !== undefined) return decision;
  const test = entry.dropTest;
  // Re-recorded, live, or another set of trials: a drop would be tested.
  if (!test) return 'cassettes differ';
  const adjusted = `Holm ${test.adjustedPValue.toFixed(3)}`;
  if (test.significant) return `p = ${test.pValue.toFixed(3)}, ${adjusted} ≤ ${alpha}: significant`;
  const needed =
    test.trialsNeeded === undefined
      ? `>${MAX_TRIALS_NEEDED.toLocaleString('en-US')} trials`
      : `~${test.trialsNeeded} trials`;
  return `p = ${test.pValue.toFixed(3)}, ${adjusted}: noise; ${needed} per side detect it`;
}

/** Under a suite summary with a row of 2-4 tasks: why its interval is marked. */
export const FEW_TASKS_NOTE =
  "† fewer than 5 tasks: the suite interval (and the suite Δ's) is rough, it undercovers: a bootstrap over 2-4 different tasks covered 75-93% of the time, not 95%. Read it as a lower bound on the uncertainty.";

/** Under the scores of a task over 2-4 cases: why its interval is marked. */
export const FEW_CASES_NOTE =
  "† fewer than 5 cases: the task's interval is rough, it undercovers: a bootstrap over 3 cases covered 84.8% of the time, not 95% (issue 32's audit). Read it as a lower bound on the uncertainty.";

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
  const rough = row.fewTasks ? ' (rough: fewer than 5 tasks †)' : '';
  return (
    `${row.suite} ${row.variant} vs ${delta.against} (${delta.tasks} task${delta.tasks === 1 ? '' : 's'}, paired): ` +
    `Δ pass@1 ${formatDelta(delta.passAt1)} ${formatInterval(delta.passAt1Interval, true)}${verdict}${rough}`
  );
}
