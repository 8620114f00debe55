import { allCpuMs, median, medianAndBest, perTrial, type RunPair, times } from './figures.js';
import type { ProcessRun } from './measure-process.js';
import type { Row } from './print-rows.js';

/** One runner's runs of the same workload: `trials` trials and 1 trial, in each round. */
export interface RunnerRuns {
  /** e.g. `harness-evals` or `evalite 0.19.0`. */
  name: string;
  /** How the N-trial run was started, for the table. */
  command: string;
  pairs: readonly RunPair[];
}

/**
 * The side-by-side table: per runner, the cost of one more trial (wall, and CPU counting the
 * fork workers the runner waited for: evalite's and vitest's default pool) and its 1-trial run; every ratio is the figure divided by the first runner's (harness-evals')
 * figure of the same kind, so a peer above 1.00x is slower than harness-evals.
 */
export function peerRows(options: {
  trials: number;
  empty: readonly ProcessRun[];
  runners: readonly RunnerRuns[];
}): Row[] {
  const { trials, empty } = options;
  const emptyWall = empty.map((run) => run.wallMs);
  const rows: Row[] = [
    {
      target: 'empty vitest run (the reference)',
      ...medianAndBest(emptyWall),
      goal: '',
      ratio: '',
      command: 'vitest run (one passing test)',
    },
  ];
  const figures = options.runners.map((runner) => ({
    runner,
    wall: perTrial(runner.pairs, trials - 1, 'wallMs'),
    cpu: perTrial(runner.pairs, trials - 1, allCpuMs),
    start: runner.pairs.map((pair) => pair.one.wallMs),
  }));
  const reference = figures[0];
  const ratio = (values: readonly number[], of: readonly number[] | undefined) =>
    of === undefined ? '' : times(median(values) / median(of));
  for (const { runner, wall, cpu, start } of figures) {
    rows.push(
      {
        target: `${runner.name}: one more trial, wall (${trials} vs 1)`,
        ...medianAndBest(wall),
        goal: '',
        ratio: ratio(wall, reference?.wall),
        command: runner.command,
      },
      {
        target: `${runner.name}: one more trial, CPU (with fork workers)`,
        ...medianAndBest(cpu),
        goal: '',
        ratio: ratio(cpu, reference?.cpu),
        command: '(same runs)',
      },
      {
        target: `${runner.name}: 1-trial run, wall`,
        ...medianAndBest(start),
        goal: '',
        ratio: ratio(start, reference?.start),
        command: '(same command, 1 trial)',
      },
    );
  }
  return rows;
}
