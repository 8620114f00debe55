import type { TrialRecord } from '../spec/trial-record.js';
import { mean, nearestRank, passAtK, passHatK } from '../stats/metrics.js';
import { caseDelta, summarizeCases } from './case-summary.js';
import { keyOf } from './compare.js';
import {
  MIN_TASKS_FOR_BOOTSTRAP,
  MIN_TASKS_FOR_COVERAGE,
  taskDeltaInterval,
  taskIntervals,
} from './intervals.js';
import { compareNames } from './order.js';
import { largestCommonK, rateAt, ratesByK } from './rates.js';
import type { TaskSummary, VariantDelta } from './report-schema.js';
import { summarizeScores } from './summarize-scores.js';

export interface SummarizeOptions {
  /** Trials requested: pass@k / pass^k get a key for every k up to this (null where n < k). */
  trials?: number;
  /** `--compare A,B`: A is every suite's reference variant where it ran (else each suite's baseline). */
  reference?: string;
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
  const overCases = group.some((record) => record.case !== undefined);
  const maxK = Math.max(options.trials ?? 0, overCases ? trialsPerCase(group) : group.length);
  const figures = overCases ? summarizeCases(group, maxK) : undefined;
  const stats = counted.flatMap((record) => (record.stats ? [record.stats] : []));
  const meanOf = (pick: (stat: (typeof stats)[number]) => number) => orNull(mean(stats.map(pick)));
  const latencies = counted.flatMap((record) => record.modelLatenciesMs);
  const judgeErrors = trialsWith(group, 'judge_error');
  const scores = summarizeScores(counted);
  const models = [...new Set(group.flatMap((record) => record.model ?? []))].sort();
  return {
    suite: first.suite,
    task: first.task,
    title: first.title,
    variant: first.variant,
    n,
    passed,
    passAt1: figures ? figures.passAt1 : orNull(passAtK(n, passed, 1)),
    passAtK: figures ? figures.passAtK : ratesByK(maxK, (k) => passAtK(n, passed, k)),
    passHatK: figures ? figures.passHatK : ratesByK(maxK, (k) => passHatK(n, passed, k)),
    intervals: figures ? figures.intervals : taskIntervals(n, passed, maxK),
    excluded: {
      stale: trialsWith(group, 'stale'),
      missing: trialsWith(group, 'missing'),
      errored: trialsWith(group, 'errored'),
      ...(judgeErrors.length > 0 && { judgeError: judgeErrors }),
      ...withProblems(group),
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
    ...(models.length > 1 && { mixedModels: models }),
    ...(figures && { cases: figures.cases }),
    ...(figures && fewCases(figures.cases) && { fewCases: true }),
  };
}

/** 2-4 counted cases: a bootstrap over so few undercovers (84.8% at 3 cases, issue 32's audit). */
function fewCases(cases: ReadonlyArray<{ n: number }>): boolean {
  const counted = cases.filter((one) => one.n > 0).length;
  return counted >= MIN_TASKS_FOR_BOOTSTRAP && counted < MIN_TASKS_FOR_COVERAGE;
}

/** The stale trials whose cassette is corrupt or holds a credential, when there are any. */
function withProblems(group: readonly TrialRecord[]) {
  const of = (problem: 'corrupt' | 'secret') =>
    group
      .filter((record) => record.fixtureProblem === problem)
      .map((record) => record.trial)
      .sort((a, b) => a - b);
  const [corrupt, secret] = [of('corrupt'), of('secret')];
  return { ...(corrupt.length > 0 && { corrupt }), ...(secret.length > 0 && { secret }) };
}

/** The most trials any case of a dataset task has. */
function trialsPerCase(group: readonly TrialRecord[]): number {
  const counts = new Map<string, number>();
  for (const record of group)
    counts.set(record.case ?? '', (counts.get(record.case ?? '') ?? 0) + 1);
  return Math.max(0, ...counts.values());
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
    // A task over cases is paired by case, as a suite is by task.
    ...(caseDelta(reference, other) ?? taskDeltaInterval(reference, other)),
  };
}

/**
 * The variant a suite's deltas are measured against: `--compare A,B`'s A, else the suite's
 * declared baseline (its records carry it), else `baseline`, else the first variant by name.
 */
export function baselineOfSuite(
  records: readonly Pick<TrialRecord, 'suite' | 'variant' | 'baseline'>[],
  suite: string,
  reference?: string,
): string | undefined {
  const ofSuite = records.filter((record) => record.suite === suite);
  if (reference !== undefined && ofSuite.some((record) => record.variant === reference))
    return reference;
  const declared = ofSuite.find((record) => record.baseline !== undefined)?.baseline;
  if (declared !== undefined) return declared;
  const variants = [...new Set(ofSuite.map((record) => record.variant))].sort(compareNames);
  return variants.includes('baseline') ? 'baseline' : variants[0];
}

/** Every variant of a task other than its suite's baseline carries its delta against it. */
function withDeltas(
  summaries: TaskSummary[],
  baselines: ReadonlyMap<string, string | undefined>,
): TaskSummary[] {
  const rowOf = new Map(summaries.map((row) => [keyOf(row), row]));
  return summaries.map((summary) => {
    const baseline = baselines.get(summary.suite);
    if (baseline === undefined || baseline === summary.variant) return summary;
    const reference = rowOf.get(keyOf({ ...summary, variant: baseline }));
    return reference ? { ...summary, delta: variantDelta(reference, summary) } : summary;
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
  return withDeltas(
    groupRecords(records).map((group) => summarizeGroup(group, options)),
    suiteBaselines(records, options.reference),
  );
}

/** Each suite's baseline (see baselineOfSuite). */
export function suiteBaselines(
  records: readonly Pick<TrialRecord, 'suite' | 'variant' | 'baseline'>[],
  reference?: string,
): Map<string, string | undefined> {
  const suites = [...new Set(records.map((record) => record.suite))];
  return new Map(suites.map((suite) => [suite, baselineOfSuite(records, suite, reference)]));
}
