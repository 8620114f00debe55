import { mean } from '../metrics.js';
import { bootstrapMean } from '../stats/bootstrap.js';
import { pairedDifference, rateDifference } from '../stats/difference.js';
import { CONFIDENCE, type Interval } from '../stats/interval.js';
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED } from '../stats/random.js';
import { passKIntervals, wilsonInterval } from '../stats/wilson.js';
import type { RateIntervals, Statistics, SuiteDelta, TaskSummary } from './report-schema.js';

/** What the report's `statistics` says about the intervals (the drop test is in the comparison). */
export const STATISTICS: Statistics = {
  confidence: CONFIDENCE,
  methods: {
    passAt1: 'Wilson score interval over the counted trials',
    passK:
      'pass^k and pass@k: the Wilson ends of the per-trial rate p mapped through p^k and 1-(1-p)^k, widened to hold the unbiased estimate',
    suite:
      'percentile bootstrap over the tasks of the suite (seeded; at least 2 tasks): how much tasks differ, not the trials within one',
    taskDelta: "Newcombe's hybrid score interval for a difference of two rates (method 10)",
    suiteDelta: 'percentile bootstrap over tasks of the paired per-task difference (seeded)',
    dropTest:
      'one-sided Fisher exact test on pass@1 counts against the reference; used when cassettes differ',
  },
  bootstrap: { seed: BOOTSTRAP_SEED, resamples: BOOTSTRAP_RESAMPLES },
};

const orNull = (interval: Interval | undefined) => interval ?? null;

/** Intervals for one task and variant with `passed` of `n` counted trials, for k = 1..maxK. */
export function taskIntervals(n: number, passed: number, maxK: number): RateIntervals {
  const passAtK: Record<string, Interval | null> = {};
  const passHatK: Record<string, Interval | null> = {};
  for (let k = 1; k <= maxK; k++) {
    const intervals = passKIntervals(n, passed, k);
    passAtK[String(k)] = intervals?.passAtK ?? null;
    passHatK[String(k)] = intervals?.passHatK ?? null;
  }
  return { passAt1: orNull(wilsonInterval(n, passed)), passAtK, passHatK };
}

/** Bootstrap intervals of the suite means; at k only when every task has a value (like the mean). */
export function suiteIntervals(tasks: readonly TaskSummary[]): RateIntervals {
  const over = (values: ReadonlyArray<number | null>) =>
    values.includes(null) || values.length < MIN_TASKS_FOR_BOOTSTRAP
      ? null
      : orNull(bootstrapMean(values as number[]));
  const byK = (pick: (task: TaskSummary) => Record<string, number | null>) => {
    const keys = [...new Set(tasks.flatMap((task) => Object.keys(pick(task))))];
    const intervals: Record<string, Interval | null> = {};
    for (const key of keys.sort((a, b) => Number(a) - Number(b))) {
      intervals[key] = over(tasks.map((task) => pick(task)[key] ?? null));
    }
    return intervals;
  };
  return {
    passAt1: over(tasks.map((task) => task.passAt1)),
    passAtK: byK((task) => task.passAtK),
    passHatK: byK((task) => task.passHatK),
  };
}

/** pass@1 delta of one task's variant against another, with its interval. */
export function taskDeltaInterval(
  reference: Pick<TaskSummary, 'n' | 'passed'>,
  other: Pick<TaskSummary, 'n' | 'passed'>,
): { passAt1Interval: Interval | null; distinguishable: boolean | null } {
  const difference = rateDifference(reference.n, reference.passed, other.n, other.passed);
  return {
    passAt1Interval: difference?.interval ?? null,
    distinguishable: difference?.distinguishable ?? null,
  };
}

/** A bootstrap over fewer tasks than this says nothing: one task resamples to itself. */
export const MIN_TASKS_FOR_BOOTSTRAP = 2;

/** Suite pass@1 of `other` minus `reference`, paired by task over tasks both counted. */
export function suiteDelta(
  against: string,
  pairs: ReadonlyArray<readonly [number, number]>,
): SuiteDelta {
  const difference = pairs.length >= MIN_TASKS_FOR_BOOTSTRAP ? pairedDifference(pairs) : undefined;
  const value = mean(pairs.map(([before, after]) => after - before)) ?? null;
  return {
    against,
    tasks: pairs.length,
    passAt1: value,
    passAt1Interval: difference?.interval ?? null,
    distinguishable: difference?.distinguishable ?? null,
  };
}
