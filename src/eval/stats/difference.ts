import { type BootstrapOptions, bootstrapMean } from './bootstrap.js';
import { CONFIDENCE, type Interval } from './interval.js';
import { wilsonInterval } from './wilson.js';

/** A difference (after - before) with its interval; distinguishable when the interval excludes 0. */
export interface DifferenceEstimate {
  value: number;
  interval: Interval;
  distinguishable: boolean;
}

function estimate(value: number, interval: Interval): DifferenceEstimate {
  return { value, interval, distinguishable: interval.lower > 0 || interval.upper < 0 };
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
  const [p1, p2] = [c1 / n1, c2 / n2];
  const value = p2 - p1;
  const lower = value - Math.sqrt((p2 - second.lower) ** 2 + (first.upper - p1) ** 2);
  const upper = value + Math.sqrt((second.upper - p2) ** 2 + (p1 - first.lower) ** 2);
  return estimate(value, { lower: Math.max(-1, lower), upper: Math.min(1, upper) });
}

/**
 * Paired difference: the mean of after - before over pairs that belong together (the same
 * task under two variants, in a suite), with a seeded percentile bootstrap over the pairs.
 */
export function pairedDifference(
  pairs: ReadonlyArray<readonly [before: number, after: number]>,
  options: BootstrapOptions = {},
): DifferenceEstimate | undefined {
  const differences = pairs.map(([before, after]) => after - before);
  const interval = bootstrapMean(differences, options);
  if (!interval) return undefined;
  const value = differences.reduce((sum, difference) => sum + difference, 0) / differences.length;
  return estimate(value, interval);
}
