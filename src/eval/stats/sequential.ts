import { type BetDesign, DEFAULT_BETS, pairedLogCapital } from './sequential-capital.js';
import { armsAgainst, bettingInterval, roundsToDecide } from './sequential-interval.js';
import type { SequentialDecision, SequentialState } from './sequential-schema.js';
import { reaches } from './sequential-tables.js';

/** What every sequential decision needs. */
export interface SequentialOptions {
  /** The run's false-alarm rate for "drop" (all rows together). */
  alpha: number;
  /** The chance of saying "no drop > delta" when the drop is delta or more, per row. */
  beta: number;
  /** The smallest drop in pass@1 that matters (--delta). */
  delta: number;
  /** Rows compared in the run: a row's drop boundary is alpha / rows (Holm's first step). */
  rows?: number;
  /** The cap: rounds past it are ignored. */
  maxRounds?: number;
  /** The bets (default: DEFAULT_BETS); fixed before the data, as validity needs. */
  design?: BetDesign;
}

export function checkOptions(options: SequentialOptions): void {
  const { alpha, beta, delta, rows = 1, maxRounds } = options;
  const open = (name: string, value: number) => {
    if (!(value > 0 && value < 1)) throw new RangeError(`${name} must be in (0, 1), got ${value}`);
  };
  open('alpha', alpha);
  open('beta', beta);
  open('delta', delta);
  if (!Number.isInteger(rows) || rows < 1) {
    throw new RangeError(`rows must be a whole number >= 1, got ${rows}`);
  }
  if (maxRounds !== undefined && !(Number.isInteger(maxRounds) && maxRounds >= 1)) {
    throw new RangeError(`maxRounds must be a whole number >= 1, got ${maxRounds}`);
  }
}

/**
 * Decide one paired row: a variant against its baseline, both growing in the same run. Round i
 * gives X_i = (reference pass rate in round i) - (new pass rate in round i), in [-1, 1]: one trial
 * per side (X in {-1, 0, 1}), or for a dataset one trial of every case (X = the mean over cases,
 * so cases stay clustered: rounds are i.i.d., cases fixed). The state is fixed by the FIRST
 * round where a boundary is crossed: the drop capital reaching rows / alpha ('drop', tested
 * first), or the no-drop capital reaching 1 / beta ('no-drop'). Later rounds change nothing.
 *
 * @example
 * decidePaired({ rounds: [1, 1, 1, 1, 1, 1, 1, 1], alpha: 0.05, beta: 0.2, delta: 0.1 })
 * // { state: 'drop', rounds: 7, decidedAt: 7, pValue: 0.0292, interval: { lower: 0.09, upper: 1 } }
 */
export function decidePaired(options: SequentialOptions & { rounds: readonly number[] }) {
  checkOptions(options);
  const { alpha, beta, delta, rows = 1, design = DEFAULT_BETS } = options;
  options.rounds.forEach((x, index) => {
    if (!(x >= -1 && x <= 1)) {
      throw new RangeError(
        `round ${index + 1} must be a difference of pass rates in [-1, 1]: ${x}`,
      );
    }
  });
  const used = options.rounds.slice(0, options.maxRounds ?? options.rounds.length);
  const capital = pairedLogCapital(used, delta, design);
  const level = alpha / rows;
  let [best, decidedAt, state] = [0, 0, 'undecided' as SequentialState];
  for (let t = 0; t < used.length && decidedAt === 0; t++) {
    best = Math.max(best, capital.drop[t]!);
    if (reaches(capital.drop[t]!, level)) state = 'drop';
    else if (reaches(capital.noDrop[t]!, beta)) state = 'no-drop';
    if (state !== 'undecided') decidedAt = t + 1;
  }
  const seen = decidedAt === 0 ? used : used.slice(0, decidedAt);
  const decision: SequentialDecision = {
    state,
    rounds: seen.length,
    pValue: Math.min(1, Math.exp(-best)),
    interval: bettingInterval(seen, -1, 1, {
      lower: { mixture: design.drop, level },
      upper: { mixture: design.noDrop, level: beta },
    }),
  };
  if (decidedAt > 0) decision.decidedAt = decidedAt;
  else {
    const arms = {
      drop: armsAgainst(seen, 0, 'below', { low: -1, high: 1, mixture: design.drop }),
      noDrop: armsAgainst(seen, delta, 'above', { low: -1, high: 1, mixture: design.noDrop }),
    };
    const more = roundsToDecide(arms, { drop: level, noDrop: beta });
    if (more !== undefined) decision.moreRounds = more;
  }
  return decision;
}
