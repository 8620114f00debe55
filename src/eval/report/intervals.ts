import { pairedDifference, rateDifference } from '../stats/difference.js';
import { CONFIDENCE, type Interval } from '../stats/interval.js';
import { mean } from '../stats/metrics.js';
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED } from '../stats/random.js';
import { suitePassKIntervals } from '../stats/suite-interval.js';
import type { PassCounts } from '../stats/two-level-bootstrap.js';
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
      'the wider of a two-level percentile bootstrap (tasks with replacement, then the trials within each drawn task, a task over cases by its cases and then their trials; seeded) and the Wilson interval of the suite rate over its pooled trials mapped like passK (at least 2 tasks)',
    taskDelta: "Newcombe's hybrid score interval for a difference of two rates (method 10)",
    cases:
      "a task over cases: its rates are means over its cases (each weighted once), their intervals the suite's two-level bootstrap over cases and the trials within each (a case's trials are a cluster), never narrower than the pooled trials' Wilson interval; its Δ is paired by case like the suite Δ",
    suiteDelta:
      "the wider of a two-level percentile bootstrap of the paired per-task difference (tasks, then each variant's trials within each drawn task; seeded) and Newcombe's interval of the two pooled suite rates",
    dropTest:
      "one-sided Fisher exact test on pass@1 counts against the reference, Holm's step-down adjustment over every row compared on other cassettes (the run keeps alpha); used when cassettes differ",
    detection:
      'exact power of that test at alpha / rows with n trials per side: the smallest drop found 80% of the time; trials per side for a given drop: exact up to 400, Fleiss continuity-corrected above',
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

/**
 * Intervals of the suite means over tasks (see suitePassKIntervals): at k only when every task
 * reached k (like the mean), and none below MIN_TASKS_FOR_BOOTSTRAP tasks.
 */
export function suiteIntervals(
  tasks: readonly Pick<TaskSummary, 'n' | 'passed' | 'passAt1' | 'passAtK' | 'cases'>[],
): RateIntervals {
  const keys = [...new Set(tasks.flatMap((task) => Object.keys(task.passAtK)))].sort(
    (a, b) => Number(a) - Number(b),
  );
  // Where the suite mean is null (a task without a value), so is its interval.
  const everyTask = (value: (task: (typeof tasks)[number]) => number | null | undefined) =>
    tasks.length >= MIN_TASKS_FOR_BOOTSTRAP && tasks.every((task) => value(task) != null);
  const ks = [...new Set([1, ...keys.map(Number)])].filter((k) =>
    everyTask((task) => (k === 1 ? task.passAt1 : task.passAtK[String(k)])),
  );
  const byK = suitePassKIntervals(
    tasks.map(({ n, passed, cases }) => ({
      n,
      passed,
      ...(cases && { cases: cases.filter((one) => one.n > 0) }),
    })),
    ks,
  );
  const at = (k: number) => byK[ks.indexOf(k)];
  const pick = (metric: 'passAtK' | 'passHatK') =>
    Object.fromEntries(keys.map((key) => [key, at(Number(key))?.[metric] ?? null]));
  return {
    passAt1: at(1)?.passAtK ?? null,
    passAtK: pick('passAtK'),
    passHatK: pick('passHatK'),
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

/**
 * A suite interval over fewer tasks than this says nothing about how tasks differ: one task
 * resamples to itself, and its own interval is already in the task table.
 */
export const MIN_TASKS_FOR_BOOTSTRAP = 2;

/**
 * Below this many tasks a suite interval (and a suite Δ's) is shown flagged as rough: a bootstrap
 * over 2-4 heterogeneous tasks covered 75-93% of the time instead of 95% (issue 28's audit).
 */
export const MIN_TASKS_FOR_COVERAGE = 5;

/** Suite pass@1 of `other` minus `reference`, paired by task over tasks both counted. */
export function suiteDelta(
  against: string,
  pairs: ReadonlyArray<readonly [before: PassCounts, after: PassCounts]>,
): SuiteDelta {
  // One task: the suite's Δ is that task's, with the task's interval (nothing to resample).
  const [only] = pairs;
  const difference =
    pairs.length >= MIN_TASKS_FOR_BOOTSTRAP
      ? pairedDifference(pairs)
      : only && rateDifference(only[0].n, only[0].passed, only[1].n, only[1].passed);
  const value = mean(
    pairs.map(([before, after]) => after.passed / after.n - before.passed / before.n),
  );
  return {
    against,
    tasks: pairs.length,
    passAt1: value ?? null,
    passAt1Interval: difference?.interval ?? null,
    distinguishable: difference?.distinguishable ?? null,
  };
}
