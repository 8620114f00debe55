import {
  type BetDesign,
  DEFAULT_BETS,
  ternaryDropEvaluator,
  ternaryNoDropEvaluator,
} from './sequential-capital.js';

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

/** The largest k in [low, high] with `holds(k)` for a predicate true up to some k; low - 1 if none. */
function lastHolding(low: number, high: number, holds: (k: number) => boolean): number {
  let [yes, no] = [low - 1, high + 1];
  while (no - yes > 1) {
    const mid = Math.floor((yes + no) / 2);
    if (holds(mid)) yes = mid;
    else no = mid;
  }
  return yes;
}

/**
 * Tables of ternaryBoundaries, filled lazily (a simulated path visits a narrow band of cells;
 * the exact forecast visits them all): each cell is a binary search over `up`.
 */
export function ternaryBoundaries(options: BoundaryOptions): TernaryBoundaries {
  const { dropLevel, beta, delta, maxRounds: n, design = DEFAULT_BETS } = options;
  const side = n + 1;
  const dropCapital = ternaryDropEvaluator(design.drop);
  const noDropCapital = ternaryNoDropEvaluator(design.noDrop, delta);
  const logDrops = new Float64Array(side * side).fill(Number.NaN);
  const logDrop = (up: number, down: number) => {
    const index = up * side + down;
    if (Number.isNaN(logDrops[index]!)) logDrops[index] = dropCapital(up, down);
    return logDrops[index]!;
  };
  // The drop capital rises with `up`: the fewest `up` that reach the level, per `down`.
  const dropAt = new Int32Array(side).fill(-2);
  for (let down = 0; down <= n; down++) {
    const below = lastHolding(0, n - down, (up) => !reaches(logDrop(up, down), dropLevel));
    dropAt[down] = below + 1 <= n - down ? below + 1 : n + 1;
  }
  const noDrop = new Int32Array(side * side).fill(-2);
  const noDropAt = (rounds: number, down: number) => {
    const index = rounds * side + down;
    if (noDrop[index] === -2) {
      // The no-drop capital falls as `up` rises: the most `up` that still reach 1 / beta.
      noDrop[index] = lastHolding(0, rounds - down, (up) =>
        reaches(noDropCapital(rounds, up, down), beta),
      );
    }
    return noDrop[index]!;
  };
  return { maxRounds: n, dropAt, noDropAt, logDrop };
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
