import type { TernaryBoundaries } from './sequential-tables.js';

/** The exact distribution of how a row ends, over every outcome path (sequentialPaths). */
export interface PathDistribution {
  /** P(the row is decided a drop at round t), index t (0 unused). */
  drop: Float64Array;
  /** P(decided no drop > D at round t). */
  noDrop: Float64Array;
  /** P(still undecided at the cap). */
  undecided: number;
}

/**
 * Exact dynamic programming over every outcome path of a row whose rounds are one trial per
 * side, independent, with true pass rates `before` (reference) and `after` (new): each round
 * is X = 1 with probability before (1 - after), X = -1 with (1 - before) after, else 0. The state
 * after t rounds is the pair of counts (up, down), which fixes both capitals (constant bets), so
 * the mass of the open paths moves through O(maxRounds^3 / 6) cells; nothing is sampled.
 */
export function sequentialPaths(
  tables: TernaryBoundaries,
  before: number,
  after: number,
): PathDistribution {
  const n = tables.maxRounds;
  const side = n + 1;
  const [pUp, pDown] = [before * (1 - after), (1 - before) * after];
  const pStay = 1 - pUp - pDown;
  let mass = new Float64Array(side * side);
  let next = new Float64Array(side * side);
  mass[0] = 1;
  const drop = new Float64Array(side);
  const noDrop = new Float64Array(side);
  for (let t = 1; t <= n; t++) {
    next.fill(0, 0, side * Math.min(side, t + 1));
    for (let up = 0; up < t; up++) {
      for (let down = 0; up + down < t; down++) {
        const here = mass[up * side + down]!;
        if (here === 0) continue;
        next[up * side + down]! += here * pStay;
        next[(up + 1) * side + down]! += here * pUp;
        next[up * side + down + 1]! += here * pDown;
      }
    }
    for (let up = 0; up <= t; up++) {
      for (let down = 0; up + down <= t; down++) {
        const index = up * side + down;
        const here = next[index]!;
        if (here === 0) continue;
        if (up >= tables.dropAt[down]!) drop[t]! += here;
        else if (up <= tables.noDropAt(t, down)) noDrop[t]! += here;
        else continue;
        next[index] = 0;
      }
    }
    [mass, next] = [next, mass];
  }
  let undecided = 0;
  for (const value of mass) undecided += value;
  return { drop, noDrop, undecided };
}

/** Expected rounds and the 95th percentile (an undecided row counts as maxRounds). */
export function roundsSummary(paths: PathDistribution): {
  expected: number;
  p95: number;
  drop: number;
  noDrop: number;
  undecided: number;
} {
  const n = paths.drop.length - 1;
  let [expected, cumulative, p95, dropTotal, noDropTotal] = [0, 0, n, 0, 0];
  for (let t = 1; t <= n; t++) {
    const stop = paths.drop[t]! + paths.noDrop[t]!;
    dropTotal += paths.drop[t]!;
    noDropTotal += paths.noDrop[t]!;
    expected += t * stop;
    cumulative += stop;
    if (p95 === n && cumulative >= 0.95 - 1e-12) p95 = t;
  }
  expected += n * paths.undecided;
  return { expected, p95, drop: dropTotal, noDrop: noDropTotal, undecided: paths.undecided };
}
