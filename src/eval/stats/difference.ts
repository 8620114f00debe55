import type { BootstrapOptions } from './bootstrap.js';
import { CONFIDENCE, hull, type Interval } from './interval.js';
import { pooledRate } from './suite-interval.js';
import { type PassCounts, twoLevelBootstrap } from './two-level-bootstrap.js';
import { wilsonInterval, wilsonScore } from './wilson.js';

/** A difference (after - before) with its interval; distinguishable when the interval excludes 0. */
export interface DifferenceEstimate {
  value: number;
  interval: Interval;
  distinguishable: boolean;
}

function estimate(value: number, interval: Interval): DifferenceEstimate {
  return { value, interval, distinguishable: interval.lower > 0 || interval.upper < 0 };
}

/** Newcombe's method 10: the interval of p2 - p1 from the Wilson intervals of each rate. */
function newcombe(p1: number, first: Interval, p2: number, second: Interval): DifferenceEstimate {
  const value = p2 - p1;
  const lower = value - Math.sqrt((p2 - second.lower) ** 2 + (first.upper - p1) ** 2);
  const upper = value + Math.sqrt((second.upper - p2) ** 2 + (p1 - first.lower) ** 2);
  return estimate(value, { lower: Math.max(-1, lower), upper: Math.min(1, upper) });
}

/**
 * Unpaired difference of two rates, c2/n2 - c1/n1 (e.g. upgraded - baseline of one task),
 * with Newcombe's hybrid score interval (his method 10), built from the two Wilson intervals.
 * Undefined when either side counted no trial.
 *
 * @example rateDifference(3, 0, 3, 3) // value 1, interval [0.12, 1]: distinguishable
 */
export function rateDifference(
  n1: number,
  c1: number,
  n2: number,
  c2: number,
  confidence: number = CONFIDENCE,
): DifferenceEstimate | undefined {
  const first = wilsonInterval(n1, c1, confidence);
  const second = wilsonInterval(n2, c2, confidence);
  if (!first || !second) return undefined;
  return newcombe(c1 / n1, first, c2 / n2, second);
}

/** passed/n of c = 0..n passes, signed: what a redraw of one side adds to after - before. */
const signedRates = (n: number, sign: number) =>
  Array.from({ length: n + 1 }, (_, c) => (sign * c) / n);

/**
 * Paired difference of a suite's pass@1, after - before, over tasks counted under both
 * variants: the mean of the per-task differences. Its interval is the wider of
 * - the two-level bootstrap (tasks, then each variant's trials within each drawn task), which
 *   keeps the pairing by task;
 * - Newcombe's interval of the two pooled suite rates (see pooledRate): where every task moved
 *   alike the pairing adds nothing, and the trials alone say this much.
 * Undefined for no pairs.
 *
 * @example pairedDifference([[{ n: 3, passed: 1 }, { n: 3, passed: 2 }], [{ n: 3, passed: 1 }, { n: 3, passed: 2 }]])
 * // value 0.33, interval ≈ [-0.19, 0.83]: not distinguishable
 */
export function pairedDifference(
  pairs: ReadonlyArray<readonly [before: PassCounts, after: PassCounts]>,
  options: BootstrapOptions = {},
): DifferenceEstimate | undefined {
  // It took per-task rates once: such a call is named, not failed deep inside.
  for (const [index, pair] of pairs.entries()) {
    const counts = Array.isArray(pair) ? pair : [];
    if (counts.length !== 2 || !counts.every(isPassCounts)) {
      throw new TypeError(
        `pairedDifference: pair ${index + 1} is not [{ n, passed }, { n, passed }] (before, after pass counts of one task); rates are no longer taken`,
      );
    }
  }
  const before = pooledRate(pairs.map(([counts]) => counts));
  const after = pooledRate(pairs.map(([, counts]) => counts));
  if (!before || !after) return undefined;
  const [bootstrap] =
    twoLevelBootstrap(
      pairs.map(([first, second]) => [
        { counts: first, scores: [signedRates(first.n, -1)] },
        { counts: second, scores: [signedRates(second.n, 1)] },
      ]),
      options,
    ) ?? [];
  const confidence = options.confidence ?? CONFIDENCE;
  const floor = newcombe(
    before.rate,
    wilsonScore(before.rate, before.n, confidence),
    after.rate,
    wilsonScore(after.rate, after.n, confidence),
  );
  return estimate(after.rate - before.rate, hull(bootstrap!, floor.interval));
}

function isPassCounts(value: unknown): value is PassCounts {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as PassCounts).n === 'number' &&
    typeof (value as PassCounts).passed === 'number'
  );
}
