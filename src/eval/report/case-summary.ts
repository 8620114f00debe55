import type { TrialRecord } from '../spec/trial-record.js';
import { passAtK, passHatK } from '../stats/metrics.js';
import { suiteDelta, suiteIntervals, taskIntervals } from './intervals.js';
import { compareNames } from './order.js';
import { ratesByK } from './rates.js';
import type { CaseRate, RateIntervals, TaskSummary, VariantDelta } from './report-schema.js';

/** A case's counted trials as the suite statistics read a task's: counts and its rates by k. */
interface CaseRow extends CaseRate {
  passAtK: Record<string, number | null>;
}

/** What a task over cases reports: each case's rate, and the task's rates as means over cases. */
export interface CaseFigures {
  cases: CaseRate[];
  passAt1: number | null;
  passAtK: Record<string, number | null>;
  passHatK: Record<string, number | null>;
  intervals: RateIntervals;
}

const mean = (values: readonly number[]) =>
  values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * A dataset task's row from its trials (all of them; passed and failed ones count): per case c of
 * n, and for the task the mean over the cases that counted a trial (each case weighted once, as a
 * suite weights its tasks), at k only where every such case reached k. The intervals treat a
 * case's trials as a cluster: the two-level bootstrap of the suite statistics (cases, then the
 * trials within each drawn case), never narrower than the Wilson interval of the pooled trials
 * (Miller 2024, "Adding Error Bars to Evals": trials of one question are not independent).
 * With one counted case, the task's own Wilson intervals.
 */
export function summarizeCases(group: readonly TrialRecord[], maxK: number): CaseFigures {
  const ids = [...new Set(group.map((record) => record.case ?? ''))].sort(compareNames);
  const rows: CaseRow[] = ids.map((id) => {
    const counted = group.filter(
      (record) =>
        (record.case ?? '') === id && (record.outcome === 'passed' || record.outcome === 'failed'),
    );
    const n = counted.length;
    const passed = counted.filter((record) => record.outcome === 'passed').length;
    return {
      case: id,
      n,
      passed,
      passAt1: passAtK(n, passed, 1) ?? null,
      passAtK: ratesByK(maxK, (k) => passAtK(n, passed, k)),
    };
  });
  const counted = rows.filter((row) => row.n > 0);
  const at = (rate: (n: number, c: number, k: number) => number | undefined) =>
    ratesByK(maxK, (k) =>
      counted.length > 0 && counted.every((row) => row.n >= k)
        ? (mean(counted.map((row) => rate(row.n, row.passed, k) ?? 0)) ?? undefined)
        : undefined,
    );
  const pooled = counted.reduce(
    (sum, row) => ({ n: sum.n + row.n, passed: sum.passed + row.passed }),
    {
      n: 0,
      passed: 0,
    },
  );
  return {
    cases: rows.map(({ passAtK: _rates, ...rate }) => rate),
    passAt1: mean(counted.map((row) => row.passed / row.n)),
    passAtK: at(passAtK),
    passHatK: at(passHatK),
    intervals:
      counted.length >= 2 ? suiteIntervals(counted) : taskIntervals(pooled.n, pooled.passed, maxK),
  };
}

/**
 * The pass@1 Δ of a dataset task's variant against its reference, paired by case over the cases
 * both counted: the mean of the per-case differences, its interval the paired suite statistic's
 * (a bootstrap over cases, never narrower than Newcombe's of the pooled rates). Undefined
 * unless both rows are over cases.
 */
export function caseDelta(
  reference: TaskSummary,
  other: TaskSummary,
): Pick<VariantDelta, 'passAt1' | 'passAt1Interval' | 'distinguishable'> | undefined {
  if (!reference.cases || !other.cases) return undefined;
  const before = new Map(reference.cases.filter((row) => row.n > 0).map((row) => [row.case, row]));
  const pairs = other.cases.flatMap((after) => {
    const matched = before.get(after.case);
    return matched && after.n > 0 ? [[matched, after] as const] : [];
  });
  const delta = suiteDelta(reference.variant, pairs);
  return {
    passAt1: delta.passAt1,
    passAt1Interval: delta.passAt1Interval,
    distinguishable: delta.distinguishable,
  };
}
