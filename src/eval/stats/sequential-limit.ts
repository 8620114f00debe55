import { DEFAULT_BETS } from './sequential-capital.js';
import { logCapitalPath, roundsToDecide } from './sequential-interval.js';
import { clopperPearson, REFERENCE_SHARE, type ReferenceCounts } from './sequential-reference.js';
import { reaches } from './sequential-tables.js';

/** What a fixed reference allows a growing new side to show (referenceLimit). */
export interface ReferenceLimit {
  /** The new rate must be shown above this for "no drop > delta" (U0 - delta). */
  noDropNeedsRateAbove: number;
  /** Whether any number of new trials can show "no drop > delta" (only a new rate above it can). */
  possible: boolean;
  /** The fewest new trials that show it, each of them passing (undefined: never). */
  bestCase?: number;
  /** A new side at the reference's own rate: can it show it, in about how many trials? */
  sameRate: { rate: number; possible: boolean; trials?: number };
  /** Reference trials at this rate from which a new side at the same rate can show it. */
  referenceTrialsNeeded?: number;
  /** One line for --plan and the report. */
  summary: string;
}

/** Reference trials past which referenceLimit stops looking. */
const LIMIT = 10_000;

/** Whether a reference at `rate` over n trials leaves room for a new side at the same rate. */
function roomAt(rate: number, n: number, delta: number, beta: number): boolean {
  const upper = clopperPearson(Math.round(rate * n), n, REFERENCE_SHARE * beta).upper;
  return upper - delta < rate;
}

/**
 * What a committed reference of `passed` in `trials` allows, for --plan and the report: against
 * a fixed reference "no drop > delta" needs the new rate shown above U0 - delta, where U0 is the
 * reference's exact upper bound at REFERENCE_SHARE * beta. A new side at the reference's own
 * rate shows it only when the reference's bound is within delta of its rate, which takes many
 * reference trials unless the rate is 0 or 1: hence the workflow with a growing baseline.
 *
 * @example referenceLimit({ passed: 2, trials: 3, delta: 0.1, beta: 0.2 }).sameRate.possible // false
 */
export function referenceLimit(
  options: ReferenceCounts & { delta: number; beta: number },
): ReferenceLimit {
  const { passed, trials, delta, beta } = options;
  const { upper } = clopperPearson(passed, trials, REFERENCE_SHARE * beta);
  const target = upper - delta;
  const level = (1 - REFERENCE_SHARE) * beta;
  const bounds = { low: 0, high: 1, mixture: DEFAULT_BETS.noDrop };
  const rate = passed / trials;
  const limit: ReferenceLimit = {
    noDropNeedsRateAbove: Math.max(0, target),
    possible: target < 1,
    sameRate: { rate, possible: rate > target },
    summary: '',
  };
  if (target <= 0) {
    limit.bestCase = 1;
    limit.sameRate.trials = 1;
  } else if (target < 1) {
    const path = logCapitalPath(new Array(2000).fill(1), target, 'below', bounds);
    const first = path.findIndex((log) => reaches(log, level));
    if (first >= 0) limit.bestCase = first + 1;
    if (rate > target) {
      // A zero-probability outcome adds nothing (0 x ln 0 = 0 here, not NaN).
      const term = (p: number, y: number) => (p === 0 ? 0 : p * Math.log1p(y));
      const growth = (c: number) => term(rate, (c * (1 - target)) / target) + term(1 - rate, -c);
      const arms = bounds.mixture.bets.map((c, j) => ({
        logCapital: Math.log(bounds.mixture.weights[j]!),
        growth: growth(c),
      }));
      const trialsNeeded = roundsToDecide({ drop: [], noDrop: arms }, { drop: 1, noDrop: level });
      if (trialsNeeded !== undefined) limit.sameRate.trials = trialsNeeded;
    }
  }
  if (limit.sameRate.possible) return withSummary(limit, options);
  // Room grows with n (the bound tightens towards the rate): double, then bisect.
  let [low, high] = [trials, trials];
  while (!roomAt(rate, high, delta, beta)) {
    if (high >= LIMIT) return withSummary(limit, options);
    [low, high] = [high, Math.min(LIMIT, 2 * high)];
  }
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (roomAt(rate, mid, delta, beta)) high = mid;
    else low = mid;
  }
  limit.referenceTrialsNeeded = high;
  return withSummary(limit, options);
}

function withSummary(limit: ReferenceLimit, reference: ReferenceCounts & { delta: number }) {
  const { passed, trials, delta } = reference;
  const head = `with ${passed}/${trials} reference trials, "no drop > ${delta}" needs the new rate shown above ${limit.noDropNeedsRateAbove.toFixed(2)}`;
  const same = limit.sameRate.possible
    ? `a new side at the same rate shows it in about ${limit.sameRate.trials} trials`
    : `no number of new trials at the same rate ${limit.sameRate.rate.toFixed(2)} can show it${limit.referenceTrialsNeeded ? ` (the reference would need ${limit.referenceTrialsNeeded} trials)` : ''}`;
  limit.summary = `${head}: ${same}`;
  return limit;
}
