import type { Interval } from './interval.js';
import { type Arm, type BetMixture, logSumExp } from './sequential-capital.js';
import { reaches } from './sequential-tables.js';

/** Where the mean may lie and the bets against a value of it. */
export interface BetBounds {
  low: number;
  high: number;
  mixture: BetMixture;
}

/**
 * Per bet of a mixture against "the mean is at most mu" (side 'below') or "at least mu"
 * ('above'), for values in [low, high]: its log capital (weight included) and mean log factor.
 * Each bet is a fraction of the largest that keeps every factor >= 0 (scaled by the distance from
 * mu to the end the value can move against it); each factor falls as mu rises (side 'below') or
 * as it falls ('above'), so the means not rejected form an interval. At mu = 0 'below' on [-1, 1]
 * is the paired drop bet 1 + l X; at mu = delta 'above' is the no-drop bet 1 + m (delta - X).
 */
export function armsAgainst(
  values: readonly number[],
  mu: number,
  side: 'below' | 'above',
  bounds: BetBounds,
): Arm[] {
  const { low, high, mixture } = bounds;
  const scale = side === 'below' ? mu - low : high - mu;
  return mixture.bets.map((c, j) => {
    let sum = 0;
    for (const x of values) {
      const gain = side === 'below' ? x - mu : mu - x;
      sum += Math.log1p(Math.max(-1, (c * gain) / scale));
    }
    return {
      logCapital: Math.log(mixture.weights[j]!) + sum,
      growth: values.length === 0 ? 0 : sum / values.length,
    };
  });
}

/** ln of the mixture capital of armsAgainst after each round, in O(rounds x bets). */
export function logCapitalPath(
  values: readonly number[],
  mu: number,
  side: 'below' | 'above',
  bounds: BetBounds,
): number[] {
  const { low, high, mixture } = bounds;
  const scale = side === 'below' ? mu - low : high - mu;
  const logs = mixture.weights.map(Math.log);
  return values.map((x) => {
    const gain = side === 'below' ? x - mu : mu - x;
    mixture.bets.forEach((c, j) => {
      logs[j]! += Math.log1p(Math.max(-1, (c * gain) / scale));
    });
    return logSumExp(logs);
  });
}

/** ln of the mixture capital of armsAgainst. */
export function logCapitalAgainst(
  values: readonly number[],
  mu: number,
  side: 'below' | 'above',
  bounds: BetBounds,
): number {
  return logSumExp(armsAgainst(values, mu, side, bounds).map((arm) => arm.logCapital));
}

/** The two ends of bettingInterval: each end's mixture and level. */
export interface IntervalEnds {
  lower: { mixture: BetMixture; level: number };
  upper: { mixture: BetMixture; level: number };
}

/**
 * An anytime-valid confidence interval for the mean of values in [low, high] (a betting
 * confidence sequence, Waudby-Smith & Ramdas 2023): the means that neither one-sided mixture
 * rejects, the lower end at `ends.lower.level`, the upper at `ends.upper.level` (coverage
 * 1 - both). It holds at every round at once, so also at the round a row stopped, however
 * that round was chosen. Ends found by bisection, rounded outwards.
 *
 * The paired rule passes its own two mixtures, so the lower end is above 0 exactly when the drop
 * capital reaches rows / alpha, and the upper end is below delta exactly when the no-drop capital
 * reaches 1 / beta: the interval and the state never disagree.
 */
export function bettingInterval(
  values: readonly number[],
  low: number,
  high: number,
  ends: IntervalEnds,
): Interval {
  const rejected = (mu: number, side: 'below' | 'above') => {
    const { mixture, level } = side === 'below' ? ends.lower : ends.upper;
    return reaches(logCapitalAgainst(values, mu, side, { low, high, mixture }), level);
  };
  if (values.length === 0) return { lower: low, upper: high };
  // 'below' rejects small means, more so the smaller: bisect for the edge of the rejected set.
  let [rejectedLow, keptLow] = [low, high];
  for (let step = 0; step < 60; step++) {
    const mid = (rejectedLow + keptLow) / 2;
    if (rejected(mid, 'below')) rejectedLow = mid;
    else keptLow = mid;
  }
  let [keptHigh, rejectedHigh] = [low, high];
  for (let step = 0; step < 60; step++) {
    const mid = (keptHigh + rejectedHigh) / 2;
    if (rejected(mid, 'above')) rejectedHigh = mid;
    else keptHigh = mid;
  }
  return { lower: rejectedLow, upper: rejectedHigh };
}

/**
 * How many more rounds would likely decide a row: each bet of either mixture keeps its mean log
 * factor per round so far, and the answer is the fewest rounds after which one mixture's
 * capital, so extrapolated, reaches its threshold. Undefined when no bet has been growing, or
 * past `limit`. An extrapolation from the rounds seen, not a promise.
 */
export function roundsToDecide(
  arms: { drop: Arm[]; noDrop: Arm[] },
  levels: { drop: number; noDrop: number },
  limit = 100_000,
): number | undefined {
  const after = (list: Arm[], level: number) => (k: number) =>
    reaches(logSumExp(list.map((arm) => arm.logCapital + k * arm.growth)), level);
  const tests = [after(arms.drop, levels.drop), after(arms.noDrop, levels.noDrop)];
  const decides = (k: number) => tests.some((test) => test(k));
  if (!decides(limit)) return undefined;
  let [no, yes] = [0, limit];
  while (yes - no > 1) {
    const mid = Math.floor((no + yes) / 2);
    if (decides(mid)) yes = mid;
    else no = mid;
  }
  return yes;
}
