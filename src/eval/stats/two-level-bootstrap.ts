import { z } from 'zod';
import { type BootstrapOptions, quantile } from './bootstrap.js';
import { logFactorial } from './drop-test.js';
import { CONFIDENCE, type Interval } from './interval.js';
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, seededRandom } from './random.js';

/** The counted trials of one task and variant, and how many of them passed. */
export const PassCountsSchema = z
  .object({ n: z.number().int().min(0), passed: z.number().int().min(0) })
  .strict();
export type PassCounts = z.infer<typeof PassCountsSchema>;

/**
 * One variant of a task in the two-level bootstrap: its counts, and what each possible number
 * of passes c = 0..n adds to every statistic (`scores[statistic][c]`). Tables keep a round
 * at one draw per variant, whatever the number of statistics.
 */
export interface BootstrapArm {
  counts: PassCounts;
  scores: ReadonlyArray<readonly number[]>;
  /**
   * A task over cases: it scores the mean over a redraw of its cases (with replacement, then each
   * drawn case's trials), not a binomial of its pooled counts, whose trials are not independent.
   */
  cases?: readonly BootstrapArm[];
}

/** Refuses counts no task can have, naming where they came from. */
export function checkPassCounts(counts: PassCounts, label: string): void {
  const { n, passed } = counts;
  if (!Number.isInteger(n) || !Number.isInteger(passed) || n < 1 || passed < 0 || passed > n) {
    throw new RangeError(
      `${label} needs whole numbers 0 <= passed <= n with n >= 1, got passed=${passed} n=${n} (leave out tasks that counted no trial)`,
    );
  }
}

/** Cumulative Binomial(n, passed/n) probabilities of 0..n passes; the last is exactly 1. */
function binomialCdf({ n, passed }: PassCounts): number[] {
  const p = passed / n;
  const cdf: number[] = [];
  let total = 0;
  for (let c = 0; c <= n; c++) {
    // Every redraw of 0/n is 0/n and of n/n is n/n: no logs of 0.
    if (passed === 0 || passed === n) total = c >= passed ? 1 : 0;
    else {
      const logChoose = logFactorial(n) - logFactorial(c) - logFactorial(n - c);
      total += Math.exp(logChoose + c * Math.log(p) + (n - c) * Math.log(1 - p));
    }
    cdf.push(c === n ? 1 : Math.min(total, 1));
  }
  return cdf;
}

/** The number of passes whose cumulative probability first exceeds u (u in [0, 1)). */
function drawPasses(cdf: readonly number[], u: number): number {
  let [low, high] = [0, cdf.length - 1];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (u < cdf[middle]!) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** How one arm is redrawn: its passes from its binomial, or (over cases) its cases, then theirs. */
type Draw = { cdf: number[]; scores: ReadonlyArray<readonly number[]> } | { cases: Draw[] };

/** Adds one redraw of an arm, times `weight`, to each statistic's sum. */
function addDraw(draw: Draw, random: () => number, sums: Float64Array, weight: number): void {
  if ('cases' in draw) {
    const m = draw.cases.length;
    const caseSums = new Float64Array(sums.length);
    for (let pick = 0; pick < m; pick++) {
      addDraw(draw.cases[Math.floor(random() * m)]!, random, caseSums, 1);
    }
    for (let statistic = 0; statistic < sums.length; statistic++) {
      sums[statistic]! += (weight * caseSums[statistic]!) / m;
    }
    return;
  }
  const passes = drawPasses(draw.cdf, random());
  for (let statistic = 0; statistic < sums.length; statistic++) {
    sums[statistic]! += weight * draw.scores[statistic]![passes]!;
  }
}

/**
 * Two-level percentile bootstrap of suite means over tasks (Miller 2024, "Adding Error Bars to
 * Evals": tasks are clusters of trials). Each round draws the tasks with replacement, then each
 * drawn task's trials with replacement (its passes from Binomial(n, passed/n)), so the interval
 * holds both which tasks were chosen and how their trials came out. Deterministic for a seed.
 * Gives one interval per statistic (per row of `scores`); undefined for no tasks.
 *
 * @example twoLevelBootstrap([[{ counts: { n: 3, passed: 1 }, scores: [[0, 1 / 3, 2 / 3, 1]] }]])
 */
export function twoLevelBootstrap(
  tasks: ReadonlyArray<readonly BootstrapArm[]>,
  options: BootstrapOptions = {},
): Interval[] | undefined {
  if (tasks.length === 0) return undefined;
  const first = tasks[0]?.[0];
  const statistics = (first?.cases?.[0] ?? first)?.scores.length ?? 0;
  const check = (arm: BootstrapArm, label: string): Draw => {
    if (arm.cases && arm.cases.length > 0) {
      const cases = arm.cases.map((one, index) => check(one, `${label} case ${index + 1}`));
      return { cases };
    }
    checkPassCounts(arm.counts, label);
    if (
      arm.scores.length !== statistics ||
      arm.scores.some((row) => row.length !== arm.counts.n + 1)
    ) {
      throw new RangeError(
        `${label} needs ${statistics} score rows of n + 1 = ${arm.counts.n + 1} values each`,
      );
    }
    return { cdf: binomialCdf(arm.counts), scores: arm.scores };
  };
  const draws = tasks.map((arms, index) =>
    arms.map((arm) => check(arm, `twoLevelBootstrap task ${index + 1}`)),
  );
  const random = seededRandom(options.seed ?? BOOTSTRAP_SEED);
  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  const alpha = 1 - (options.confidence ?? CONFIDENCE);
  const means = Array.from({ length: statistics }, () => new Float64Array(resamples));
  const sums = new Float64Array(statistics);
  for (let round = 0; round < resamples; round++) {
    sums.fill(0);
    for (let pick = 0; pick < tasks.length; pick++) {
      const task = Math.floor(random() * tasks.length);
      for (const draw of draws[task]!) addDraw(draw, random, sums, 1);
    }
    for (let statistic = 0; statistic < statistics; statistic++) {
      means[statistic]![round] = sums[statistic]! / tasks.length;
    }
  }
  return means.map((values) => {
    const sorted = [...values.sort()];
    return { lower: quantile(sorted, alpha / 2), upper: quantile(sorted, 1 - alpha / 2) };
  });
}
