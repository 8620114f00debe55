import { mean, nearestRank, passAtK, passHatK } from '../stats/metrics.js';
import type { TrialRecord } from '../trial/trial-record.js';
import { taskDeltaInterval, taskIntervals } from './intervals.js';
import { compareNames } from './order.js';
import { largestCommonK, rateAt, ratesByK } from './rates.js';
import type { TaskSummary, VariantDelta } from './report-schema.js';
import { summarizeScores } from './summarize-scores.js';

export interface SummarizeOptions {
  /** Trials requested: pass@k / pass^k get a key for every k up to this (null where n < k). */
  trials?: number;
}

function orNull(value: number | undefined): number | null {
  return value ?? null;
}

function groupRecords(records: readonly TrialRecord[]): TrialRecord[][] {
  const groups = new Map<string, TrialRecord[]>();
  for (const record of records) {
    const key = JSON.stringify([record.suite, record.task, record.variant]);
    const group = groups.get(key);
    if (group) group.push(record);
    else groups.set(key, [record]);
  }
  return [...groups.values()].sort((left, right) => {
    const [a, b] = [left[0]!, right[0]!];
    return (
      compareNames(a.suite, b.suite) ||
      compareNames(a.task, b.task) ||
      compareNames(a.variant, b.variant)
    );
  });
}

function trialsWith(group: readonly TrialRecord[], outcome: TrialRecord['outcome']): number[] {
  return group
    .filter((record) => record.outcome === outcome)
    .map((record) => record.trial)
    .sort((a, b) => a - b);
}

function summarizeGroup(group: readonly TrialRecord[], options: SummarizeOptions): TaskSummary {
  const first = group[0]!;
  const counted = group.filter(
    (record) => record.outcome === 'passed' || record.outcome === 'failed',
  );
  const n = counted.length;
  const passed = counted.filter((record) => record.outcome === 'passed').length;
  const maxK = Math.max(options.trials ?? 0, group.length);
  const stats = counted.flatMap((record) => (record.stats ? [record.stats] : []));
  const meanOf = (pick: (stat: (typeof stats)[number]) => number) => orNull(mean(stats.map(pick)));
  const latencies = counted.flatMap((record) => record.modelLatenciesMs);
  const judgeErrors = trialsWith(group, 'judge_error');
  const scores = summarizeScores(counted);
  return {
    suite: first.suite,
    task: first.task,
    title: first.title,
    variant: first.variant,
    n,
    passed,
    passAt1: orNull(passAtK(n, passed, 1)),
    passAtK: ratesByK(maxK, (k) => passAtK(n, passed, k)),
    passHatK: ratesByK(maxK, (k) => passHatK(n, passed, k)),
    intervals: taskIntervals(n, passed, maxK),
    excluded: {
      stale: trialsWith(group, 'stale'),
      missing: trialsWith(group, 'missing'),
      errored: trialsWith(group, 'errored'),
      ...(judgeErrors.length > 0 && { judgeError: judgeErrors }),
    },
    tokens: {
      input: meanOf((stat) => stat.inputTokens),
      output: meanOf((stat) => stat.outputTokens),
      cacheRead: meanOf((stat) => stat.cacheReadTokens),
      cacheWrite: meanOf((stat) => stat.cacheWriteTokens),
    },
    steps: meanOf((stat) => stat.steps),
    toolCalls: meanOf((stat) => stat.toolCalls),
    toolErrors: meanOf((stat) => stat.toolErrors),
    unconfirmedWrites: meanOf((stat) => stat.unconfirmedWrites),
    modelLatencyMs: {
      p50: orNull(nearestRank(latencies, 50)),
      p95: orNull(nearestRank(latencies, 95)),
    },
    toolMs: meanOf((stat) => stat.toolMs),
    ...(scores && { scores }),
  };
}

function difference(after: number | null, before: number | null): number | null {
  return after === null || before === null ? null : after - before;
}

/** Delta of `other` against `reference`, computed from the counts so any common k works. */
export function variantDelta(reference: TaskSummary, other: TaskSummary): VariantDelta {
  const k = largestCommonK(reference.passHatK, other.passHatK);
  return {
    against: reference.variant,
    passAt1: difference(other.passAt1, reference.passAt1),
    k: k ?? null,
    passHatK: difference(rateAt(other.passHatK, k), rateAt(reference.passHatK, k)),
    ...taskDeltaInterval(reference, other),
  };
}

/** Of two variants, the one deltas are measured against: baseline, else the first. */
export function deltaReference<T extends { variant: string }>(variants: readonly T[]): T {
  return variants.find((row) => row.variant === 'baseline') ?? variants[0]!;
}

/** With exactly two variants of a task, the non-reference row carries the delta. */
function withDeltas(summaries: TaskSummary[]): TaskSummary[] {
  const byTask = new Map<string, TaskSummary[]>();
  for (const summary of summaries) {
    const key = JSON.stringify([summary.suite, summary.task]);
    byTask.set(key, [...(byTask.get(key) ?? []), summary]);
  }
  return summaries.map((summary) => {
    const variants = byTask.get(JSON.stringify([summary.suite, summary.task])) ?? [];
    if (variants.length !== 2) return summary;
    const reference = deltaReference(variants);
    if (summary === reference) return summary;
    return { ...summary, delta: variantDelta(reference, summary) };
  });
}

/**
 * Per (suite, task, variant): c of n over passed + failed trials only, pass@k and pass^k for
 * every k, means of the run stats, model latency p50/p95, and the delta against the other
 * variant (upgraded - baseline). Stale, missing and errored trials are listed, never counted.
 */
export function summarizeTasks(
  records: readonly TrialRecord[],
  options: SummarizeOptions = {},
): TaskSummary[] {
  return withDeltas(groupRecords(records).map((group) => summarizeGroup(group, options)));
}
