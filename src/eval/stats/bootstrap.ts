import { CONFIDENCE, type Interval } from './interval.js';
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, seededRandom } from './random.js';

export interface BootstrapOptions {
  seed?: number;
  resamples?: number;
  confidence?: number;
}

/** The value at quantile q of sorted values, linearly interpolated (numpy's default). */
export function quantile(sorted: readonly number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  const low = sorted[below]!;
  return low + (sorted[above]! - low) * (position - below);
}

/**
 * Percentile bootstrap interval of the mean of `values` (resampled with replacement).
 * Deterministic for a given seed. Undefined for no values.
 *
 * @example bootstrapMean([1, 0.67, 1, 0.33]) // the mean of four values (suites use suitePassKIntervals)
 */
export function bootstrapMean(
  values: readonly number[],
  options: BootstrapOptions = {},
): Interval | undefined {
  if (values.length === 0) return undefined;
  const random = seededRandom(options.seed ?? BOOTSTRAP_SEED);
  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  const alpha = 1 - (options.confidence ?? CONFIDENCE);
  const means: number[] = [];
  for (let round = 0; round < resamples; round++) {
    let sum = 0;
    for (let draw = 0; draw < values.length; draw++) {
      sum += values[Math.floor(random() * values.length)]!;
    }
    means.push(sum / values.length);
  }
  means.sort((a, b) => a - b);
  return { lower: quantile(means, alpha / 2), upper: quantile(means, 1 - alpha / 2) };
}
