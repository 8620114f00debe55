import { Bench } from 'tinybench';
import { pipelineOverheadCase } from './pipeline-overhead.js';
import { replayTrialRows } from './replay-trial.js';

/**
 * `npm run bench`: figures, not pass/fail. Each entry is measured several times
 * and the median of the medians is reported next to its baseline.
 */
const ROUNDS = 5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function measure(name: string, fn: () => Promise<unknown>, time = 300): Promise<number> {
  const medians: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const bench = new Bench({ time, warmupTime: 100 });
    bench.add(name, fn);
    await bench.run();
    const latency = bench.tasks[0]?.result;
    if (latency?.state !== 'completed') throw new Error(`${name}: benchmark did not complete`);
    medians.push(latency.latency.p50 * 1000);
  }
  return median(medians);
}

async function main(): Promise<void> {
  const rows: Array<[string, string]> = [];
  const pipeline = pipelineOverheadCase();
  const bare = await measure('bare no-op tool', pipeline.bare);
  const gated = await measure('no-op tool through the pipeline', pipeline.gated);
  rows.push(['bare no-op tool call (median)', `${bare.toFixed(2)} µs`]);
  rows.push(['same call through every gate (median)', `${gated.toFixed(2)} µs`]);
  rows.push([
    'pipeline overhead per tool call',
    `${(gated - bare).toFixed(2)} µs (target < 20 µs)`,
  ]);
  rows.push(...(await replayTrialRows(measure)));
  const width = Math.max(...rows.map(([label]) => label.length));
  console.log(`harness-evals benchmarks (median of ${ROUNDS} runs each; node ${process.version})`);
  for (const [label, value] of rows) console.log(`  ${label.padEnd(width)}  ${value}`);
}

await main();
