import { MICRO_ROUNDS, measure } from './micro-measure.js';
import { pipelineOverheadCase } from './pipeline-overhead.js';
import type { Row } from './print-rows.js';
import { replayTrialRows } from './replay-trial.js';

/**
 * `npm run bench -- --micro`: the in-process micro-benchmarks (the pipeline's overhead per
 * tool call, one replayed trial, the SDK alone), as bench rows.
 */
export async function microRows(): Promise<Row[]> {
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
