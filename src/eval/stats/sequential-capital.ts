/**
 * The capital of the two bets a sequential row decision makes (testing by betting: Shafer 2021,
 * Waudby-Smith & Ramdas 2023). Each round gives X in [-1, 1], the reference's pass rate minus the
 * new one's in that round, whose mean d is the drop in pass@1.
 *
 * - The drop bet wins when X > 0: per bet l, the capital is prod (1 + l X_i). Under d <= 0 every
 *   factor has mean <= 1 and is >= 0 (l <= 1, X >= -1): a nonnegative supermartingale.
 * - The no-drop bet wins when X < D: per bet m, prod (1 + m (D - X_i)). Under d >= D every
 *   factor has mean <= 1; it is >= 0 for m <= 1 / (1 - D) (the worst X is 1, giving 1 - m (1 - D)).
 *   (1 / (1 + D) would bound the other side, where D - X is at most D + 1: that side only grows.)
 *
 * A weighted average of such products is still one (a mixture of e-processes), so by Ville's
 * inequality P(sup_t capital_t >= 1 / a) <= a, whatever the number of looks.
 * Capitals are kept as logarithms: 2^1100 overflows a double.
 */

/** A weighted set of constant bets (weights sum to 1). */
export interface BetMixture {
  readonly bets: readonly number[];
  readonly weights: readonly number[];
}

/**
 * The drop bets: from the size that suits a drop of 0.10 at a pass rate near 0.5 (~0.2) up to
 * all-in (1: a fall from 1.00 to 0 doubles the capital each round). Weight leans to the middle.
 */
export const DROP_BETS: BetMixture = {
  bets: [0.1, 0.2, 0.35, 0.55, 0.8, 1],
  weights: [0.15, 0.2, 0.2, 0.15, 0.15, 0.15],
};

/**
 * The no-drop bets, as fractions of the largest, 1 / (1 - D): from the size that suits no change
 * at a pass rate near 0.5 to all-in (no change at 1.00: X is always 0, each round pays 1/(1 - D)).
 */
export const NO_DROP_BETS: BetMixture = {
  bets: [0.2, 0.35, 0.55, 0.8, 1],
  weights: [0.2, 0.2, 0.2, 0.2, 0.2],
};

/** The two mixtures a design bets with. */
export interface BetDesign {
  readonly drop: BetMixture;
  readonly noDrop: BetMixture;
}

export const DEFAULT_BETS: BetDesign = { drop: DROP_BETS, noDrop: NO_DROP_BETS };

/** ln(sum_j exp(terms_j)), stable for large terms; -Infinity when every term is. */
export function logSumExp(terms: readonly number[]): number {
  const top = Math.max(...terms);
  if (top === Number.NEGATIVE_INFINITY) return top;
  let sum = 0;
  for (const term of terms) sum += Math.exp(term - top);
  return top + Math.log(sum);
}

/** ln(1 + y), -Infinity at y = -1 (a bet that lost everything). */
const log1p = (y: number) => (y <= -1 ? Number.NEGATIVE_INFINITY : Math.log1p(y));

/** The bets of the no-drop mixture in absolute terms, for `delta`. */
export function noDropBets(mixture: BetMixture, delta: number): number[] {
  return mixture.bets.map((fraction) => fraction / (1 - delta));
}

/**
 * The log capital of both bets after each round of `rounds`.
 *
 * @example pairedLogCapital([1, 1], 0.1).drop // [ln mean_j (1 + l_j), ln mean_j (1 + l_j)^2]
 */
export function pairedLogCapital(
  rounds: readonly number[],
  delta: number,
  design: BetDesign = DEFAULT_BETS,
): { drop: number[]; noDrop: number[] } {
  const dropLogs = design.drop.weights.map(Math.log);
  const noDropLogs = design.noDrop.weights.map(Math.log);
  const m = noDropBets(design.noDrop, delta);
  const drop: number[] = [];
  const noDrop: number[] = [];
  for (const x of rounds) {
    design.drop.bets.forEach((l, j) => {
      dropLogs[j]! += log1p(l * x);
    });
    m.forEach((bet, j) => {
      noDropLogs[j]! += log1p(bet * (delta - x));
    });
    drop.push(logSumExp(dropLogs));
    noDrop.push(logSumExp(noDropLogs));
  }
  return { drop, noDrop };
}

/** One bet of a mixture: log capital (weight included) and mean log factor per round. */
export interface Arm {
  logCapital: number;
  growth: number;
}

/**
 * The same log capitals from counts, for rounds of one trial per side (X in {-1, 0, 1}):
 * `up` rounds with X = 1 (the reference passed, the new one failed), `down` with X = -1, the rest
 * of `rounds` with X = 0. Order does not matter for constant bets; the forecast and the bench
 * walk these tables.
 */
export function ternaryLogCapital(
  rounds: number,
  up: number,
  down: number,
  delta: number,
  design: BetDesign = DEFAULT_BETS,
): { drop: number; noDrop: number } {
  return {
    drop: ternaryDropEvaluator(design.drop)(up, down),
    noDrop: ternaryNoDropEvaluator(design.noDrop, delta)(rounds, up, down),
  };
}

/**
 * A fast evaluator of a constant-bet mixture's log capital from the counts of three outcomes:
 * per bet, its log weight and its log factor per outcome are kept, so one call is J exponentials.
 */
function countsEvaluator(weights: readonly number[], factors: readonly number[][]) {
  const size = weights.length;
  const logWeights = Float64Array.from(weights, Math.log);
  const [first, second, third] = [0, 1, 2].map((k) =>
    Float64Array.from(factors, (row) => (row[k] === undefined ? 0 : log1p(row[k]!))),
  ) as [Float64Array, Float64Array, Float64Array];
  const terms = new Float64Array(size);
  // A count of 0 contributes 0 even when its factor is 0 (ln 0 = -Infinity, 0 x -Infinity = NaN).
  const part = (count: number, log: number) => (count === 0 ? 0 : count * log);
  return (a: number, b: number, c: number) => {
    let top = Number.NEGATIVE_INFINITY;
    for (let j = 0; j < size; j++) {
      const sum = logWeights[j]! + part(a, first[j]!) + part(b, second[j]!) + part(c, third[j]!);
      terms[j] = sum;
      if (sum > top) top = sum;
    }
    if (top === Number.NEGATIVE_INFINITY) return top;
    let total = 0;
    for (let j = 0; j < size; j++) total += Math.exp(terms[j]! - top);
    return top + Math.log(total);
  };
}

/** ln of the drop capital after `up` rounds at X = 1 and `down` at X = -1 (ternaryLogCapital). */
export function ternaryDropEvaluator(mixture: BetMixture): (up: number, down: number) => number {
  const evaluate = countsEvaluator(
    mixture.weights,
    mixture.bets.map((l) => [l, -l]),
  );
  return (up, down) => evaluate(up, down, 0);
}

/** ln of the no-drop capital after `rounds` rounds, `up` at X = 1, `down` at X = -1. */
export function ternaryNoDropEvaluator(
  mixture: BetMixture,
  delta: number,
): (rounds: number, up: number, down: number) => number {
  const evaluate = countsEvaluator(
    mixture.weights,
    noDropBets(mixture, delta).map((m) => [m * delta, m * (delta - 1), m * (delta + 1)]),
  );
  return (rounds, up, down) => evaluate(rounds - up - down, up, down);
}
