import { mean } from '../stats/metrics.js';
import type { PassCounts } from '../stats/two-level-bootstrap.js';
import {
  MIN_TASKS_FOR_BOOTSTRAP,
  MIN_TASKS_FOR_COVERAGE,
  suiteDelta,
  suiteIntervals,
} from './intervals.js';
import { compareNames } from './order.js';
import type { SuiteDelta, TaskSummary, VariantSummary } from './report-schema.js';
import { suiteBaselines } from './summarize.js';

function meanOrNull(values: ReadonlyArray<number | null>): number | null {
  return mean(values.filter((value): value is number => value !== null)) ?? null;
}

/** Mean at k only when every task has a value there (HumanEval, τ²-bench): no mixed k. */
function meanRates(
  tasks: readonly TaskSummary[],
  pick: (task: TaskSummary) => Record<string, number | null>,
) {
  const keys = new Set(tasks.flatMap((task) => Object.keys(pick(task))));
  const rates: Record<string, number | null> = {};
  for (const key of [...keys].sort((a, b) => Number(a) - Number(b))) {
    const values = tasks.map((task) => pick(task)[key] ?? null);
    rates[key] = values.includes(null) ? null : (mean(values as number[]) ?? null);
  }
  return rates;
}

function summarizeVariant(
  suite: string,
  variant: string,
  rows: readonly TaskSummary[],
): VariantSummary {
  const tasks = rows.filter((row) => row.n > 0);
  const meanOf = (pick: (task: TaskSummary) => number | null) => meanOrNull(tasks.map(pick));
  return {
    suite,
    variant,
    tasks: tasks.length,
    excludedTasks: rows.filter((row) => row.n === 0).map((row) => row.task),
    passAt1: meanOf((task) => task.passAt1),
    passAtK: meanRates(tasks, (task) => task.passAtK),
    passHatK: meanRates(tasks, (task) => task.passHatK),
    intervals: suiteIntervals(tasks),
    fewTasks: tasks.length >= MIN_TASKS_FOR_BOOTSTRAP && tasks.length < MIN_TASKS_FOR_COVERAGE,
    tokens: {
      input: meanOf((task) => task.tokens.input),
      output: meanOf((task) => task.tokens.output),
      cacheRead: meanOf((task) => task.tokens.cacheRead),
      cacheWrite: meanOf((task) => task.tokens.cacheWrite),
    },
    steps: meanOf((task) => task.steps),
    toolCalls: meanOf((task) => task.toolCalls),
    toolErrors: meanOf((task) => task.toolErrors),
    unconfirmedWrites: meanOf((task) => task.unconfirmedWrites),
    toolMs: meanOf((task) => task.toolMs),
  };
}

/**
 * Suite figures per (suite, variant): means over tasks, each task weighted once. Tasks with
 * no counted trial are left out and named in `excludedTasks`.
 */
export function summarizeSuites(
  tasks: readonly TaskSummary[],
  baselines: ReadonlyMap<string, string | undefined> = suiteBaselines(tasks),
): VariantSummary[] {
  const groups = new Map<string, TaskSummary[]>();
  for (const task of tasks) {
    const key = JSON.stringify([task.suite, task.variant]);
    groups.set(key, [...(groups.get(key) ?? []), task]);
  }
  const summaries = [...groups.values()]
    .map((rows) => summarizeVariant(rows[0]!.suite, rows[0]!.variant, rows))
    .sort((a, b) => compareNames(a.suite, b.suite) || compareNames(a.variant, b.variant));
  return withSuiteDeltas(summaries, tasks, baselines);
}

/**
 * Suite pass@1 of `variant` minus `reference` in `suite`, paired by task over the tasks both
 * counted. Any two variants: the report's own rows pair only the two of a two-variant suite.
 */
function suiteDeltaOf(
  tasks: readonly Pick<TaskSummary, 'suite' | 'task' | 'variant' | 'n' | 'passed'>[],
  suite: string,
  reference: string,
  variant: string,
): SuiteDelta {
  const counted = (task: string, name: string) =>
    tasks.find(
      (row) => row.suite === suite && row.task === task && row.variant === name && row.n > 0,
    );
  const pairs: Array<[PassCounts, PassCounts]> = [];
  for (const task of new Set(tasks.filter((row) => row.suite === suite).map((row) => row.task))) {
    const [before, after] = [counted(task, reference), counted(task, variant)];
    if (before && after) pairs.push([before, after]);
  }
  return suiteDelta(reference, pairs);
}

/** Every variant of a suite but its baseline gets the paired pass@1 delta against it. */
function withSuiteDeltas(
  summaries: VariantSummary[],
  tasks: readonly TaskSummary[],
  baselines: ReadonlyMap<string, string | undefined>,
): VariantSummary[] {
  return summaries.map((summary) => {
    const baseline = baselines.get(summary.suite);
    const reference = summaries.find(
      (other) => other.suite === summary.suite && other.variant === baseline,
    );
    if (!reference || reference === summary) return summary;
    return {
      ...summary,
      delta: suiteDeltaOf(tasks, summary.suite, reference.variant, summary.variant),
    };
  });
}
