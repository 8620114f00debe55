import { median, medianAndBest, ms, perTrial, times } from './figures.js';
import type { ProcessRun } from './measure-process.js';
import type { Row } from './print-rows.js';
import type { TargetRuns } from './target-runs.js';
import {
  DEBUG_FLAGS,
  DEBUG_TRIALS,
  REPLAY_FLAGS,
  REPLAY_TRIALS,
  SCALE_TRIALS,
  STARTUP_FLAGS,
} from './targets.js';

const EVAL = 'npm run eval --';
/** Trials of one debug-agent run: 4 tasks x 2 variants per `--trials`. */
const debugTrials = (trials: number) => trials * 8;

/**
 * The contract table: each target of issues 14 and 25 with its figure (median and best round)
 * and its ratio to the empty vitest run of the same bench run.
 */
export function contractRows(runs: TargetRuns): Row[] {
  const emptyWall = median(runs.empty.map((run) => run.wallMs));
  const ratioOf = (list: readonly ProcessRun[]) =>
    times(median(list.map((run) => run.wallMs)) / emptyWall);
  return [
    ...startupRows(runs, emptyWall),
    ...replayRows(runs, ratioOf),
    ...debugRows(runs, ratioOf),
    ...scaleRows(runs, emptyWall, ratioOf),
    {
      target: 'processes left behind',
      figure: String(runs.leftovers.size),
      best: '',
      goal: '0',
      ratio: '',
      command:
        runs.leftovers.size > 0 ? [...runs.leftovers].slice(0, 3).join('; ') : 'every measured run',
    },
  ];
}

type RatioOf = (list: readonly ProcessRun[]) => string;

function startupRows(runs: TargetRuns, emptyWall: number): Row[] {
  const dependencyLoad = perTrial(runs.dependencies, 1, 'wallMs');
  return [
    {
      target: 'empty vitest run (the reference)',
      ...medianAndBest(runs.empty.map((run) => run.wallMs)),
      goal: '',
      ratio: '1.00x',
      command: 'vitest run (one passing test)',
    },
    {
      target: 'start-up: T2, 1 trial per variant',
      ...medianAndBest(runs.current.startup.map((run) => run.wallMs)),
      goal: '≤ 1.3x',
      // Each round's start-up over the same round's empty run, as the side-by-side table takes it.
      ratio: times(
        median(runs.current.startup.map((run, round) => run.wallMs / runs.empty[round]!.wallMs)),
      ),
      command: `${EVAL} ${STARTUP_FLAGS.join(' ')}`,
    },
    {
      target: '  floor: loading the SDK and zod',
      ...medianAndBest(dependencyLoad),
      goal: '',
      ratio: times(median(dependencyLoad) / emptyWall),
      command: "node -e \"await import('@anthropic-ai/sdk'); await import('zod')\" − node -e ''",
    },
  ];
}

function replayRows(runs: TargetRuns, ratioOf: RatioOf): Row[] {
  const { replay, loops } = runs.current;
  const extra = REPLAY_TRIALS - 1;
  return [
    {
      target: `replayed refund trial, wall (${REPLAY_TRIALS} vs 1)`,
      ...medianAndBest(perTrial(replay, extra, 'wallMs')),
      goal: '−40 % vs 1264a15',
      ratio: ratioOf(replay.map((pair) => pair.many)),
      command: `${EVAL} ${REPLAY_FLAGS.join(' ')} ${REPLAY_TRIALS}`,
    },
    {
      target: 'replayed refund trial, CPU',
      ...medianAndBest(perTrial(replay, extra, 'cpuMs')),
      goal: '−40 % vs 1264a15',
      ratio: '',
      command: '(same runs)',
    },
    {
      target: `  floor: vitest, one more empty test (${REPLAY_TRIALS} vs 1)`,
      ...medianAndBest(perTrial(runs.vitestTests, extra, 'wallMs')),
      goal: '',
      ratio: '',
      command: `vitest run, describe.concurrent with ${REPLAY_TRIALS} passing tests`,
    },
    {
      target: `  the same trials without vitest (${REPLAY_TRIALS} vs 1)`,
      ...medianAndBest(perTrial(loops, extra, 'wallMs')),
      goal: '−50 % vs 1264a15',
      ratio: '',
      command: 'node bench/trial-loop.mjs <bench project> N (runTrial, 8 at a time)',
    },
  ];
}

function debugRows(runs: TargetRuns, ratioOf: RatioOf): Row[] {
  const extra = debugTrials(DEBUG_TRIALS) - debugTrials(1);
  return [
    {
      target: `debug-agent trial, wall (${debugTrials(DEBUG_TRIALS)} vs ${debugTrials(1)})`,
      ...medianAndBest(perTrial(runs.debug, extra, 'wallMs')),
      goal: '≤ 15 ms',
      ratio: ratioOf(runs.debug.map((pair) => pair.many)),
      command: `${EVAL} ${DEBUG_FLAGS.join(' ')} ${DEBUG_TRIALS}`,
    },
    {
      target: 'debug-agent trial, CPU',
      ...medianAndBest(perTrial(runs.debug, extra, 'cpuMs')),
      goal: '',
      ratio: '',
      command: '(same runs)',
    },
  ];
}

function scaleRows(runs: TargetRuns, emptyWall: number, ratioOf: RatioOf): Row[] {
  const rows: Row[] = [
    {
      target: `every task and variant, ${SCALE_TRIALS * 20} trials: wall`,
      ...medianAndBest(runs.scale.map((run) => run.wallMs)),
      goal: '< 30 s',
      ratio: ratioOf(runs.scale),
      command: `${EVAL} --trials ${SCALE_TRIALS}`,
    },
    {
      target: '  peak RSS',
      ...medianAndBest(
        runs.scale.map((run) => run.maxRssKb / 1024),
        (value) => `${value.toFixed(0)} MB`,
      ),
      goal: '< 500 MB',
      ratio: '',
      command: '(same runs)',
    },
  ];
  if (runs.tests) {
    rows.push({
      target: 'npm test (unit tests + eval gate)',
      figure: ms(runs.tests.wallMs),
      best: ms(runs.tests.wallMs),
      goal: '< 60 s',
      ratio: times(runs.tests.wallMs / emptyWall),
      command: `npm test (1 round, exit ${runs.tests.exitCode})`,
    });
  }
  return rows;
}
