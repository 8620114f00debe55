import { type BetDesign, DEFAULT_BETS, ternaryLogCapital } from './sequential-capital.js';

/** Round-off slack of a crossing: capital at 1 / level counts (exact cases land on it). */
const SLACK = 1e-12;

/** Whether a log capital reaches 1 / level (Ville's threshold for an error rate of `level`). */
export function reaches(logCapital: number, level: number): boolean {
  return logCapital + Math.log(level) >= -SLACK;
}

/**
 * The stopping boundaries of the paired rule for rounds of one trial per side, as counts: after
 * t rounds with `up` rounds X = 1 and `down` rounds X = -1 the row is a drop when
 * up >= dropAt[down], else no drop > D when up <= noDropAt(t, down). Both capitals are monotone
 * in `up` (the drop one rises, the no-drop one falls), which is why one number per cell suffices.
 */
export interface TernaryBoundaries {
  readonly maxRounds: number;
  /** Per `down`, the fewest `up` that make a drop (maxRounds + 1: none). Independent of t. */
  readonly dropAt: Int32Array;
  /** Per (t, down), the most `up` that still give no drop > D (-1: none). */
  noDropAt(rounds: number, down: number): number;
  /** ln of the drop capital at (up, down): the anytime p-value is exp(-max over the path). */
  logDrop(up: number, down: number): number;
}

export interface BoundaryOptions {
  /** The drop boundary's level: alpha over the run's rows (Holm's first step). */
  dropLevel: number;
  beta: number;
  delta: number;
  maxRounds: number;
  design?: BetDesign;
}

/** Tables of ternaryBoundaries; O(maxRounds^2) capital evaluations. */
export function ternaryBoundaries(options: BoundaryOptions): TernaryBoundaries {
  const { dropLevel, beta, delta, maxRounds: n, design = DEFAULT_BETS } = options;
  const side = n + 1;
  const logDrops = new Float64Array(side * side).fill(Number.NaN);
  const logDrop = (up: number, down: number) => {
    const index = up * side + down;
    if (Number.isNaN(logDrops[index]!)) {
      logDrops[index] = ternaryLogCapital(up + down, up, down, delta, design).drop;
    }
    return logDrops[index]!;
  };
  const dropAt = new Int32Array(side).fill(n + 1);
  for (let down = 0; down <= n; down++) {
    // The drop capital rises with `up` and falls with `down`: the boundary only moves right.
    let up = down === 0 ? 0 : dropAt[down - 1]!;
    while (up + down <= n && !reaches(logDrop(up, down), dropLevel)) up++;
    dropAt[down] = up + down <= n ? up : n + 1;
  }
  const noDrop = new Int32Array(side * side).fill(-1);
  for (let t = 1; t <= n; t++) {
    for (let down = 0; down <= t; down++) {
      // One more round at X = 0 only adds capital: start from the previous round's boundary.
      let up = t > 1 && down < t ? Math.max(-1, noDrop[(t - 1) * side + down]!) : -1;
      while (
        up + 1 + down <= t &&
        reaches(ternaryLogCapital(t, up + 1, down, delta, design).noDrop, beta)
      )
        up++;
      noDrop[t * side + down] = up;
    }
  }
  return {
    maxRounds: n,
    dropAt,
    noDropAt: (rounds, down) => noDrop[rounds * side + down]!,
    logDrop,
  };
}

/** How a ternary row ends: its state, the round it was decided (or maxRounds) and its p-value. */
export interface TernaryOutcome {
  state: 'drop' | 'no-drop' | 'undecided';
  rounds: number;
  /** exp(-max log drop capital along the path), capped at 1. */
  pValue: number;
}

/**
 * Walk one row's rounds of X in {-1, 0, 1} (drawn by `next`) through the tables until the
 * first crossing or the cap: the bench's fast path, checked against decidePaired in the tests.
 */
export function walkTernary(tables: TernaryBoundaries, next: () => -1 | 0 | 1): TernaryOutcome {
  let [up, down, best] = [0, 0, 0];
  for (let t = 1; t <= tables.maxRounds; t++) {
    const x = next();
    if (x === 1) up++;
    else if (x === -1) down++;
    best = Math.max(best, tables.logDrop(up, down));
    if (up >= tables.dropAt[down]!) return { state: 'drop', rounds: t, pValue: Math.exp(-best) };
    if (up <= tables.noDropAt(t, down)) {
      return { state: 'no-drop', rounds: t, pValue: Math.min(1, Math.exp(-best)) };
    }
  }
  return { state: 'undecided', rounds: tables.maxRounds, pValue: Math.min(1, Math.exp(-best)) };
}
