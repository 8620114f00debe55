import { Bench } from 'tinybench';
import { pipelineOverheadCase } from './pipeline-overhead.js';
import { replayTrialRows } from './replay-trial.js';

/**
 * `npm run bench`: figures, not pass/fail. Each entry is measured in several rounds;
 * the median of the round medians is reported next to the best round, because a
 * shared, noisy machine only ever adds time.
 */
const ROUNDS = 7;

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

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const measure: Measure = async (name, fn, time = 300) => {
  const medians: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const bench = new Bench({ time, warmupTime: 100 });
    bench.add(name, fn);
    await bench.run();
    const latency = bench.tasks[0]?.result;
    if (latency?.state !== 'completed') throw new Error(`${name}: benchmark did not complete`);
    medians.push(latency.latency.p50 * 1000);
  }
  return { median: median(medians), best: Math.min(...medians) };
};

async function main(): Promise<void> {
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
  const widths = [0, 1, 2, 3].map((column) =>
    Math.max(
      ...[['entry', 'median', 'best round', 'target'], ...rows].map((row) => row[column]!.length),
    ),
  );
  const line = (row: readonly string[]) =>
    row
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[0]!) : cell.padStart(widths[column]!),
      )
      .join('  ');
  console.log(`harness-evals benchmarks (${ROUNDS} rounds each; node ${process.version})`);
  console.log(`  ${line(['entry', 'median', 'best round', 'target'])}`);
  for (const row of rows) console.log(`  ${line(row)}`);
}

await main();
