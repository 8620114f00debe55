import { Bench } from 'tinybench';

/** A micro-benchmark's figure over its rounds. */
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

/** Rounds of each in-process micro-benchmark (`npm run bench -- --micro`). */
export const MICRO_ROUNDS = 7;

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** tinybench, `MICRO_ROUNDS` times: the median and the best of the rounds' median latencies. */
export const measure: Measure = async (name, fn, time = 300) => {
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
