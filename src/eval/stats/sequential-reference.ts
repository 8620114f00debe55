import { logFactorial } from './drop-test.js';
import { checkOptions, type SequentialOptions } from './sequential.js';
import { DEFAULT_BETS } from './sequential-capital.js';
import {
  armsAgainst,
  bettingInterval,
  logCapitalPath,
  roundsToDecide,
} from './sequential-interval.js';
import type { SequentialDecision } from './sequential-schema.js';
import { reaches } from './sequential-tables.js';

/** The committed reference of a row: fixed, it does not grow in this run. */
export interface ReferenceCounts {
  passed: number;
  trials: number;
}

/** The share of alpha (and of beta) spent on the reference's bound; the rest goes to the new side. */
export const REFERENCE_SHARE = 0.5;

/** P(X >= c) for X ~ Binomial(n, p). */
function tailAtLeast(c: number, n: number, p: number): number {
  let sum = 0;
  for (let k = c; k <= n; k++) {
    const log = logFactorial(n) - logFactorial(k) - logFactorial(n - k);
    sum += Math.exp(
      log + (k === 0 ? 0 : k * Math.log(p)) + (n - k === 0 ? 0 : (n - k) * Math.log1p(-p)),
    );
  }
  return Math.min(1, sum);
}

/** Bisection for the p in (0, 1) where an increasing function of p crosses `target`. */
function solve(increasing: (p: number) => number, target: number): number {
  let [low, high] = [0, 1];
  for (let step = 0; step < 60; step++) {
    const mid = (low + high) / 2;
    if (increasing(mid) < target) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

/**
 * Exact one-sided Clopper-Pearson bounds (1934) for c passes in n trials, each at error `level`:
 * P(p < lower) <= level and P(p > upper) <= level at any p.
 *
 * @example clopperPearson(3, 3, 0.05) // { lower: 0.368, upper: 1 }
 */
export function clopperPearson(c: number, n: number, level: number) {
  if (!(Number.isInteger(n) && Number.isInteger(c) && n >= 1 && c >= 0 && c <= n)) {
    throw new RangeError(
      `the reference needs whole numbers 0 <= passed <= trials >= 1, got ${c}/${n}`,
    );
  }
  return {
    lower: c === 0 ? 0 : solve((p) => tailAtLeast(c, n, p), level),
    upper: c === n ? 1 : 1 - solve((q) => tailAtLeast(n - c, n, q), level),
  };
}

export interface ReferenceOptions extends SequentialOptions {
  reference: ReferenceCounts;
  /** The new variant's pass rate per round, in [0, 1] (a dataset: the mean over its cases). */
  rounds: readonly number[];
}

/** The two hypotheses' targets for the new rate, for a row's drop level and beta. */
export function referenceTargets(
  reference: ReferenceCounts,
  levels: { drop: number; beta: number },
  delta: number,
) {
  const s = REFERENCE_SHARE;
  return {
    /** A drop is shown when the new rate is shown below this (p0's lower bound). */
    dropBelow: clopperPearson(reference.passed, reference.trials, s * levels.drop).lower,
    /** No drop > delta is shown when the new rate is shown above this (p0's upper bound - delta). */
    noDropAbove: clopperPearson(reference.passed, reference.trials, s * levels.beta).upper - delta,
  };
}

/**
 * Decide a row against a fixed reference (c0 passes in n0 trials) as its new rounds arrive.
 * Drop: the reference's exact lower bound L0 (error share * alpha / rows) and a betting test
 * that the new rate is below L0 (the rest); a false drop needs one of the two to fail, so its
 * chance is at most alpha / rows. No drop > delta: the reference's upper bound U0 (share * beta)
 * and a betting test that the new rate is above U0 - delta (the rest). The reference's data are
 * independent of the new rounds, so each betting test is valid given the bound. First crossing
 * fixes the state, as in decidePaired; the p-value is the smallest alpha whose test rejects.
 */
export function decideAgainstReference(options: ReferenceOptions): SequentialDecision {
  checkOptions(options);
  const { alpha, beta, delta, rows = 1, reference, design = DEFAULT_BETS } = options;
  options.rounds.forEach((y, index) => {
    if (!(y >= 0 && y <= 1))
      throw new RangeError(`round ${index + 1} must be a pass rate in [0, 1]: ${y}`);
  });
  const used = options.rounds.slice(0, options.maxRounds ?? options.rounds.length);
  const level = alpha / rows;
  const newShare = 1 - REFERENCE_SHARE;
  const { dropBelow, noDropAbove } = referenceTargets(reference, { drop: level, beta }, delta);
  const dropBounds = { low: 0, high: 1, mixture: design.drop };
  const noDropBounds = { low: 0, high: 1, mixture: design.noDrop };
  // A bound at 0 (no reference pass) leaves nothing to fall below; U0 - delta <= 0, nothing to
  // rise above: a drop of delta is already ruled out by the reference alone.
  const dropPath =
    dropBelow > 0
      ? logCapitalPath(used, dropBelow, 'above', dropBounds)
      : used.map(() => -Infinity);
  const noDropPath =
    noDropAbove > 0
      ? logCapitalPath(used, noDropAbove, 'below', noDropBounds)
      : used.map(() => Infinity);
  let decidedAt = 0;
  let state: SequentialDecision['state'] = 'undecided';
  for (let t = 0; t < used.length && decidedAt === 0; t++) {
    if (reaches(dropPath[t]!, newShare * level)) state = 'drop';
    else if (reaches(noDropPath[t]!, newShare * beta)) state = 'no-drop';
    if (state !== 'undecided') decidedAt = t + 1;
  }
  const seen = decidedAt === 0 ? used : used.slice(0, decidedAt);
  const newRate = bettingInterval(seen, 0, 1, {
    lower: { mixture: design.noDrop, level: newShare * beta },
    upper: { mixture: design.drop, level: newShare * level },
  });
  const decision: SequentialDecision = {
    state,
    rounds: seen.length,
    pValue: referencePValue(seen, reference, design),
    interval: { lower: dropBelow - newRate.upper, upper: noDropAbove + delta - newRate.lower },
  };
  if (decidedAt > 0) decision.decidedAt = decidedAt;
  else if (dropBelow > 0 && noDropAbove > 0) {
    const arms = {
      drop: armsAgainst(seen, dropBelow, 'above', dropBounds),
      noDrop: armsAgainst(seen, noDropAbove, 'below', noDropBounds),
    };
    const more = roundsToDecide(arms, { drop: newShare * level, noDrop: newShare * beta });
    if (more !== undefined) decision.moreRounds = more;
  }
  return decision;
}

/**
 * The anytime-valid p-value of "no drop" against a fixed reference: the smallest level a whose
 * test rejects at some round so far (rejection grows with a: the bound L0 rises, the threshold
 * falls), found by bisection over ln a. P(p <= x) <= x because that is the level-x test.
 */
function referencePValue(
  values: readonly number[],
  reference: ReferenceCounts,
  design = DEFAULT_BETS,
): number {
  const bounds = { low: 0, high: 1, mixture: design.drop };
  const rejects = (level: number) => {
    const below = clopperPearson(reference.passed, reference.trials, REFERENCE_SHARE * level).lower;
    if (below <= 0) return false;
    const path = logCapitalPath(values, below, 'above', bounds);
    return path.some((log) => reaches(log, (1 - REFERENCE_SHARE) * level));
  };
  if (!rejects(1 - 1e-9)) return 1;
  let [no, yes] = [Math.log(1e-15), 0];
  for (let step = 0; step < 40; step++) {
    const mid = (no + yes) / 2;
    if (rejects(Math.exp(mid))) yes = mid;
    else no = mid;
  }
  return Math.min(1, Math.exp(yes));
}
