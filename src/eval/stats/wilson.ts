import { CONFIDENCE, type Interval, twoSidedZ } from './interval.js';
import { passAtK, passHatK } from './metrics.js';

/**
 * Wilson score interval for c passes in n trials. Unlike the normal (Wald) interval it stays
 * inside [0, 1] and has width at c = 0 and c = n: 0/3 gives [0, 0.56], 3/3 gives [0.44, 1].
 * Undefined for n = 0.
 *
 * @example wilsonInterval(3, 2) // { lower: 0.2077, upper: 0.9385 }
 */
export function wilsonInterval(
  n: number,
  c: number,
  confidence: number = CONFIDENCE,
): Interval | undefined {
  if (!Number.isInteger(n) || !Number.isInteger(c) || n < 0 || c < 0 || c > n) {
    throw new RangeError(`wilsonInterval needs whole numbers 0 <= c <= n, got c=${c} n=${n}`);
  }
  if (n === 0) return undefined;
  return wilsonScore(c / n, n, confidence);
}

/**
 * The Wilson interval of an observed rate over n trials, where n may be an effective count
 * that is not a whole number (a suite mean over tasks of unequal n).
 */
export function wilsonScore(rate: number, n: number, confidence: number = CONFIDENCE): Interval {
  if (!(rate >= 0 && rate <= 1) || !(n > 0)) {
    throw new RangeError(`wilsonScore needs 0 <= rate <= 1 and n > 0, got rate=${rate} n=${n}`);
  }
  const z = twoSidedZ(confidence);
  const z2 = z * z;
  const centre = (rate + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((rate * (1 - rate)) / n + z2 / (4 * n * n));
  // Exact ends at the edges: round-off would otherwise give 1e-17 instead of 0.
  return {
    lower: rate === 0 ? 0 : Math.max(0, centre - half),
    upper: rate === 1 ? 1 : Math.min(1, centre + half),
  };
}

/** pass@k and pass^k intervals with their estimates; see passKIntervals. */
export interface PassKIntervals {
  passAtK: Interval;
  passHatK: Interval;
}

/**
 * Map an interval of the per-trial rate p through 1 - (1 - p)^k and p^k, each widened to hold
 * the estimate the report shows for it.
 */
export function rateIntervalToK(
  rate: Interval,
  k: number,
  estimates: { passAtK: number; passHatK: number },
): PassKIntervals {
  const around = (point: number, lower: number, upper: number): Interval => ({
    lower: Math.min(point, lower),
    upper: Math.max(point, upper),
  });
  return {
    passAtK: around(estimates.passAtK, 1 - (1 - rate.lower) ** k, 1 - (1 - rate.upper) ** k),
    passHatK: around(estimates.passHatK, rate.lower ** k, rate.upper ** k),
  };
}

/**
 * An interval for pass^k = p^k and pass@k = 1 - (1 - p)^k, from the Wilson interval of the
 * per-trial pass rate p. Both are monotone in p, so mapping the ends keeps the coverage.
 * The unbiased estimators can fall outside it at small n (2 of 3 gives pass^3 = 0 while
 * p^3 >= 0.01), so each interval is widened to hold the estimate the report shows.
 */
export function passKIntervals(
  n: number,
  c: number,
  k: number,
  confidence: number = CONFIDENCE,
): PassKIntervals | undefined {
  const rate = wilsonInterval(n, c, confidence);
  const [atK, hatK] = [passAtK(n, c, k), passHatK(n, c, k)];
  if (!rate || atK === undefined || hatK === undefined) return undefined;
  return rateIntervalToK(rate, k, { passAtK: atK, passHatK: hatK });
}
