import { mulberry32 } from '../../core/mulberry32.js';
import { DETECTION_POWER, dropPower, trialsNeeded } from './power.js';
import { type BetMixture, DEFAULT_BETS, logSumExp } from './sequential-capital.js';
import { roundsSummary, sequentialPaths } from './sequential-paths.js';
import { REFERENCE_SHARE, type ReferenceCounts, referenceTargets } from './sequential-reference.js';
import { reaches, ternaryBoundaries, walkTernary } from './sequential-tables.js';

/** Up to this cap the paired forecast is exact (dynamic programming); past it, simulated. */
export const EXACT_FORECAST_ROUNDS = 300;
const SIMULATED_RUNS = 2000;
const FORECAST_SEED = 20261207;

/** How many rounds (trials per side) a row takes in one scenario, and how it ends. */
export interface RoundsForecast {
  expected: number;
  p95: number;
  /** The shares of rows ending in each state. */
  drop: number;
  noDrop: number;
  undecided: number;
  method: 'exact' | 'simulated';
}

export interface ForecastOptions {
  /** The reference's pass rate (paired: the baseline's expected rate). */
  p0: number;
  delta: number;
  alpha: number;
  beta: number;
  /** Rows compared in the run (each row's drop boundary is alpha / rows). */
  rows?: number;
  /** The cap; default twice fixedN, which gives the rule about fixedN's power at a drop of delta. */
  maxRounds?: number;
  design: 'paired' | { reference: ReferenceCounts };
}

/**
 * Trials per side of the fixed-n design with the same alpha and power 1 - beta at a fall from
 * `before` to `after`: the gate's one-sided Fisher exact test (power.ts: exact up to 200 per side,
 * Fleiss past it). At beta = 0.2 this is power.ts's trialsNeeded; otherwise the smallest n whose
 * exact power reaches 1 - beta, searched up to 400.
 */
export function fixedTrials(
  before: number,
  after: number,
  alpha: number,
  beta: number,
): number | undefined {
  if (Math.abs(1 - beta - DETECTION_POWER) < 1e-12) return trialsNeeded(before, after, alpha);
  for (let n = 1; n <= 400; n++) if (dropPower(n, before, after, alpha) >= 1 - beta) return n;
  return undefined;
}

/**
 * A forecast before spending (--plan): per row, the fixed-n figure and the sequential rule's
 * expected and 95th-percentile rounds, both when nothing changed and under a drop of delta.
 * Paired rows: exact dynamic programming over every outcome path up to EXACT_FORECAST_ROUNDS,
 * a seeded simulation past it. Against a fixed reference: a seeded simulation of the new side.
 *
 * @example forecastRounds({ p0: 1, delta: 0.1, alpha: 0.05, beta: 0.2, rows: 20, design: 'paired' })
 * // { fixedN: 113, noChange: { expected: 23, p95: 23, ... }, drop: { expected: ~96, ... } }
 */
export function forecastRounds(options: ForecastOptions) {
  const { p0, delta, alpha, beta, rows = 1, design } = options;
  const level = alpha / rows;
  const fixedN = fixedTrials(p0, Math.max(0, p0 - delta), level, beta);
  const maxRounds = options.maxRounds ?? 2 * (fixedN ?? 5000);
  const scenario = (after: number): RoundsForecast =>
    design === 'paired'
      ? pairedForecast({ level, beta, delta, maxRounds }, p0, after)
      : referenceForecast({ level, beta, delta, maxRounds }, design.reference, after);
  return {
    fixedN,
    maxRounds,
    noChange: scenario(p0),
    drop: scenario(Math.max(0, p0 - delta)),
  };
}

interface Levels {
  level: number;
  beta: number;
  delta: number;
  maxRounds: number;
}

function pairedForecast(levels: Levels, before: number, after: number): RoundsForecast {
  const tables = ternaryBoundaries({ ...levels, dropLevel: levels.level, design: DEFAULT_BETS });
  if (levels.maxRounds <= EXACT_FORECAST_ROUNDS) {
    return { ...roundsSummary(sequentialPaths(tables, before, after)), method: 'exact' };
  }
  const random = mulberry32(FORECAST_SEED);
  const [pUp, pDown] = [before * (1 - after), (1 - before) * after];
  const next = () => {
    const u = random();
    return u < pUp ? 1 : u < pUp + pDown ? -1 : 0;
  };
  return summarise(Array.from({ length: SIMULATED_RUNS }, () => walkTernary(tables, next)));
}

function referenceForecast(
  levels: Levels,
  reference: ReferenceCounts,
  after: number,
): RoundsForecast {
  const targets = referenceTargets(
    reference,
    { drop: levels.level, beta: levels.beta },
    levels.delta,
  );
  const random = mulberry32(FORECAST_SEED);
  const share = 1 - REFERENCE_SHARE;
  const bounds = { low: 0, high: 1 };
  const outcomes = Array.from({ length: SIMULATED_RUNS / 2 }, () => {
    const drop =
      targets.dropBelow > 0
        ? capitalWalk(targets.dropBelow, 'above', DEFAULT_BETS.drop)
        : undefined;
    const noDrop = capitalWalk(targets.noDropAbove, 'below', DEFAULT_BETS.noDrop);
    for (let t = 1; t <= levels.maxRounds; t++) {
      const y = random() < after ? 1 : 0;
      if (drop && reaches(drop(y), share * levels.level)) return { state: 'drop', rounds: t };
      if (targets.noDropAbove <= 0 || reaches(noDrop(y), share * levels.beta))
        return { state: 'no-drop', rounds: t };
    }
    return { state: 'undecided', rounds: levels.maxRounds };
  });
  return summarise(outcomes);

  /** logCapitalPath's capital one pass/fail round at a time (factors for y = 0 and 1 kept). */
  function capitalWalk(mu: number, side: 'below' | 'above', mixture: BetMixture) {
    const logs = mixture.weights.map(Math.log);
    const scale = side === 'below' ? mu - bounds.low : bounds.high - mu;
    const steps = [0, 1].map((y) =>
      mixture.bets.map((c) =>
        Math.log1p(Math.max(-1, (c * (side === 'below' ? y - mu : mu - y)) / scale)),
      ),
    );
    return (y: number) => {
      steps[y]!.forEach((step, j) => {
        logs[j]! += step;
      });
      return logSumExp(logs);
    };
  }
}

function summarise(outcomes: ReadonlyArray<{ state: string; rounds: number }>): RoundsForecast {
  const sorted = outcomes.map((outcome) => outcome.rounds).sort((a, b) => a - b);
  const share = (state: string) =>
    outcomes.filter((outcome) => outcome.state === state).length / outcomes.length;
  return {
    expected: sorted.reduce((sum, rounds) => sum + rounds, 0) / sorted.length,
    p95: sorted[Math.ceil(0.95 * sorted.length) - 1]!,
    drop: share('drop'),
    noDrop: share('no-drop'),
    undecided: share('undecided'),
    method: 'simulated',
  };
}
