import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { parseBenchArgs, projectOf, roundsOf, runBenchScript } from './bench-args.js';
import { VIEWER_TITLE, viewerRows } from './html-report.js';
import { pipelineOverheadCase } from './pipeline-overhead.js';
import { printRows } from './print-rows.js';
import { replayTrialRows } from './replay-trial.js';
import { type Row, runTargets } from './run-targets.js';

/**
 * `npm run bench`: the performance contract. Figures, never pass/fail: each target of
 * issue 14 with its measured figure (median and best of several rounds) and its ratio
 * to an empty vitest run measured in the same run. `--micro` adds the in-process
 * micro-benchmarks (pipeline overhead, one replayed trial). The HTML report's viewer in
 * headless Chromium follows (html-report.ts); `--viewer` measures only that.
 */
export interface Measured {
  /** Median of the rounds' median latencies, in microseconds. */
  median: number;
  /** The fastest round's median latency, in microseconds. */
  best: number;
}

export type Measure = (
  name: string,
  fn: () => Promise<unknown>,
  time?: number,
) => Promise<Measured>;

const MICRO_ROUNDS = 7;

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const measure: Measure = async (name, fn, time = 300) => {
  const medians: number[] = [];
  for (let round = 0; round < MICRO_ROUNDS; round += 1) {
    const bench = new Bench({ time, warmupTime: 100 });
    bench.add(name, fn);
    await bench.run();
    const latency = bench.tasks[0]?.result;
    if (latency?.state !== 'completed') throw new Error(`${name}: benchmark did not complete`);
    medians.push(latency.latency.p50 * 1000);
  }
  return { median: median(medians), best: Math.min(...medians) };
};

async function microRows(): Promise<Row[]> {
  const pipeline = pipelineOverheadCase();
  const bare = await measure('bare no-op tool', pipeline.bare);
  const gated = await measure('no-op tool through the pipeline', pipeline.gated);
  const us = (value: number) => `${value.toFixed(2)} µs`;
  const rows: Array<[string, string, string, string]> = [
    ['bare no-op tool call', us(bare.median), us(bare.best), ''],
    ['same call through every gate', us(gated.median), us(gated.best), ''],
    [
      'pipeline overhead per tool call',
      us(gated.median - bare.median),
      us(gated.best - bare.best),
      '< 20 µs',
    ],
    ...(await replayTrialRows(measure)),
  ];
  return rows.map(([target, figure, best, goal]) => ({
    target,
    figure,
    best,
    goal,
    ratio: '',
    command: `in process (${MICRO_ROUNDS} rounds)`,
  }));
}

async function main(): Promise<undefined> {
  const { values } = parseBenchArgs(process.argv.slice(2), {
    rounds: { type: 'string' },
    project: { type: 'string' },
    'skip-npm-test': { type: 'boolean' },
    micro: { type: 'boolean' },
    viewer: { type: 'boolean' },
  });
  const rounds = roundsOf(values.rounds, 5);
  const projectDir = projectOf(values.project, fileURLToPath(new URL('../..', import.meta.url)));
  const log = (line: string) => console.error(line);
  if (values.viewer) {
    printRows(VIEWER_TITLE, await viewerRows(projectDir, log), '');
    return undefined;
  }
  const rows = await runTargets({
    projectDir,
    rounds,
    npmTest: !values['skip-npm-test'],
    log: (line) => console.error(line),
  });
  printRows(
    `harness-evals performance targets (issue 14; ${rounds} rounds; node ${process.version}; ${projectDir})`,
    rows,
  );
  if (values.micro) printRows(`micro-benchmarks (${MICRO_ROUNDS} rounds each)`, await microRows());
  printRows(VIEWER_TITLE, await viewerRows(projectDir, log), '');
  return undefined;
}

await runBenchScript('bench', main);
