import { median, ms, perTrial, type RunPair, times } from './figures.js';
import type { ProcessRun } from './measure-process.js';
import { printTable } from './print-rows.js';
import type { BuildRuns } from './target-runs.js';
import { REPLAY_FLAGS, REPLAY_TRIALS, STARTUP_FLAGS } from './targets.js';

/** One figure of both builds: medians over the rounds, and this build's over the baseline's. */
export interface ComparisonRow {
  figure: string;
  current: string;
  baseline: string;
  /** Median of the rounds' ratios (this / baseline), with their range. */
  ratio: string;
  /** The target line: never judged here, the machine is shared and noisy. */
  target: string;
  command: string;
}

const REPLAY_TARGET = '≥ 40 % less than the baseline (≤ 0.60x)';
const LOOP_TARGET = '≥ 50 % less than the baseline (≤ 0.50x)';

/**
 * `npm run bench -- --baseline-ref REF`: the figures issue 25 sets targets on, for this build
 * and REF's, measured in the same rounds with the two builds alternated. Each round's figure
 * of one build is paired with the other's of the same round, so the ratio is taken per round.
 */
export function sideBySideRows(options: {
  empty: readonly ProcessRun[];
  current: BuildRuns;
  baseline: BuildRuns;
}): ComparisonRow[] {
  const { empty, current, baseline } = options;
  const extra = REPLAY_TRIALS - 1;
  const perRound = (of: (runs: BuildRuns) => number[]) => ({
    current: of(current),
    baseline: of(baseline),
  });
  const wall = (pairs: (runs: BuildRuns) => RunPair[]) =>
    perRound((runs) => perTrial(pairs(runs), extra, 'wallMs'));
  const cpu = (pairs: (runs: BuildRuns) => RunPair[]) =>
    perRound((runs) => perTrial(pairs(runs), extra, 'cpuMs'));
  const startup = perRound((runs) => runs.startup.map((run) => run.wallMs));
  const startupRatio = perRound((runs) =>
    runs.startup.map((run, round) => run.wallMs / empty[round]!.wallMs),
  );
  const evalCommand = `npm run eval -- ${REPLAY_FLAGS.join(' ')} ${REPLAY_TRIALS} vs 1`;
  return [
    row(
      'replayed refund trial, wall per trial',
      wall((runs) => runs.replay),
      ms,
      REPLAY_TARGET,
      evalCommand,
    ),
    row(
      'replayed refund trial, CPU per trial',
      cpu((runs) => runs.replay),
      ms,
      REPLAY_TARGET,
      '(same runs)',
    ),
    row(
      'the same trials without vitest, wall per trial',
      wall((runs) => runs.loops),
      ms,
      LOOP_TARGET,
      `node bench/trial-loop.mjs <bench project> ${REPLAY_TRIALS} vs 1`,
    ),
    row(
      'the same trials without vitest, CPU per trial',
      cpu((runs) => runs.loops),
      ms,
      LOOP_TARGET,
      '(same runs)',
    ),
    row('start-up, wall', startup, ms, '', `npm run eval -- ${STARTUP_FLAGS.join(' ')}`),
    row(
      'start-up ÷ empty vitest run (same round)',
      startupRatio,
      times,
      '≤ 1.3x an empty vitest run (this build)',
      '(same runs; vitest run, one passing test)',
    ),
  ];
}

function row(
  figure: string,
  values: { current: number[]; baseline: number[] },
  format: (value: number) => string,
  target: string,
  command: string,
): ComparisonRow {
  const ratios = values.current.map((value, round) => value / values.baseline[round]!);
  const range =
    ratios.length > 1
      ? ` (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})`
      : '';
  return {
    figure,
    current: format(median(values.current)),
    baseline: format(median(values.baseline)),
    ratio: `${times(median(ratios))}${range}`,
    target,
    command,
  };
}

/** Print the side-by-side table (its title names the two builds). */
export function printSideBySide(title: string, rows: readonly ComparisonRow[]): void {
  printTable(title, rows, {
    figure: 'figure (median of the rounds)',
    current: 'this build',
    baseline: 'baseline',
    ratio: 'this / baseline (range)',
    target: 'target (issue 25)',
    command: 'command',
  });
}
