import { atMost, dropPValue } from './drop-test.js';

/**
 * Holm's step-down adjustment (1979): each p-value made comparable with one alpha for the whole
 * family, in the order given. Rejecting every adjusted p-value at or below alpha keeps the chance
 * of one or more false alarms in the family at alpha or less, whatever the dependence between
 * the tests; it never rejects fewer than Bonferroni does.
 *
 * @example holmAdjusted([0.01, 0.04, 0.03]) // [0.03, 0.06, 0.06]
 */
export function holmAdjusted(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((_, index) => index).sort((a, b) => pValues[a]! - pValues[b]!);
  const adjusted = new Array<number>(m);
  let running = 0;
  for (const [rank, index] of order.entries()) {
    running = Math.max(running, Math.min(1, (m - rank) * pValues[index]!));
    adjusted[index] = running;
  }
  return adjusted;
}

/** One row's pass counts on either side of a comparison. */
export interface RowCounts {
  before: { n: number; passed: number };
  after: { n: number; passed: number };
}

/**
 * The gate's run-level drop test over rows compared on other cassettes: each row's one-sided
 * Fisher p-value (dropPValue), Holm-adjusted over them all, and whether it is a drop at `alpha`.
 * Under no change, a run of any number of rows then fails at most `alpha` of the time.
 */
export function runLevelDrops(
  rows: readonly RowCounts[],
  alpha: number,
): Array<{ pValue: number; adjustedPValue: number; significant: boolean }> {
  const pValues = rows.map(({ before, after }) =>
    dropPValue(before.n, before.passed, after.n, after.passed),
  );
  return holmAdjusted(pValues).map((adjustedPValue, index) => ({
    pValue: pValues[index]!,
    adjustedPValue,
    // A drop, significant: the rate fell, and the run-level test says it is no noise.
    significant:
      rows[index]!.after.passed / rows[index]!.after.n <
        rows[index]!.before.passed / rows[index]!.before.n && atMost(adjustedPValue, alpha),
  }));
}
