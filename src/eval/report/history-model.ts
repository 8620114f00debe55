import { type DifferenceEstimate, rateDifference } from '../stats/difference.js';
import type { Interval } from '../stats/interval.js';
import { wilsonInterval } from '../stats/wilson.js';
import type { EvalReport } from './report-schema.js';

/** One readable report in the history: a commit that changed the file, or a downloaded report. */
export interface HistoryPoint {
  /** The full commit, or the report file's path under `--dir`. */
  id: string;
  /** What tables name it by: the short commit, or the file's path. */
  label: string;
  /** The commit's author date, or the report's generatedAt. */
  date: string;
  /** The commit's subject line (git only). */
  subject?: string;
  report: EvalReport;
  /** Hash of the harness files at this commit; undefined where no git says (`--dir`). */
  harness?: string;
}

/**
 * pass@1 of one row at one point and its 95% interval, as the report gives them (Wilson over the
 * trials; for a task over cases, the mean over cases and its clustered interval).
 */
export interface HistoryValue {
  n: number;
  passed: number;
  rate: number;
  interval: Interval;
  /** The row's cassette hashes, sorted: equal lists replay the same answers. */
  cassettes: string[];
}

/**
 * regressed: pass@1 fell and the harness changed (or no git says). recovered: it rose after a
 * regression. improved: it rose with no regression open. flaky: it moved with the harness
 * unchanged: only the recording (or a live judge) changed the verdict.
 */
export type HistoryMark = 'regressed' | 'recovered' | 'improved' | 'flaky';

export interface HistoryChange {
  /** Index of the point the change happened at (its previous point is the one before with a value). */
  at: number;
  from: number;
  mark: HistoryMark;
  difference: DifferenceEstimate;
  /** The same cassettes on both sides: the difference is no sampling noise. */
  deterministic: boolean;
  /** undefined when no git says whether the harness changed. */
  harnessChanged: boolean | undefined;
}

/** One task and variant over the history: a value per point (undefined: not in that report). */
export interface HistorySeries {
  suite: string;
  task: string;
  variant: string;
  values: Array<HistoryValue | undefined>;
  changes: HistoryChange[];
}

const rowKey = (row: { suite: string; task: string; variant: string }) =>
  JSON.stringify([row.suite, row.task, row.variant]);

function rowValue(report: EvalReport, key: string): HistoryValue | undefined {
  const row = report.tasks.find((task) => rowKey(task) === key);
  // The report's own figures where it has them (a task over cases: a mean over its cases).
  const interval = row && (row.intervals.passAt1 ?? wilsonInterval(row.n, row.passed));
  if (!row || !interval || row.n === 0) return undefined;
  const cassettes = report.trialProvenance
    .filter((trial) => rowKey(trial) === key && trial.cassetteHash !== undefined)
    .map((trial) => `${trial.case ?? ''}#${trial.trial}=${trial.cassetteHash}`)
    .sort();
  return {
    n: row.n,
    passed: row.passed,
    rate: row.passAt1 ?? row.passed / row.n,
    interval,
    cassettes,
  };
}

const sameCassettes = (first: HistoryValue, second: HistoryValue) =>
  first.cassettes.length > 0 && first.cassettes.join('\n') === second.cassettes.join('\n');

/**
 * Whether pass@1 moved between two consecutive values: any difference when both replayed the
 * same cassettes (deterministic), else only when Newcombe's 95% interval of the difference
 * leaves out 0 (the drop the report's own Δ column calls distinguishable).
 */
export function callChange(
  before: HistoryValue,
  after: HistoryValue,
): { difference: DifferenceEstimate; deterministic: boolean } | undefined {
  const difference = rateDifference(before.n, before.passed, after.n, after.passed);
  if (!difference || difference.value === 0) return undefined;
  const deterministic = sameCassettes(before, after);
  return deterministic || difference.distinguishable ? { difference, deterministic } : undefined;
}

/** Marks each called change of one series, oldest first (see HistoryMark). */
export function classifyChanges(
  values: ReadonlyArray<HistoryValue | undefined>,
  harness: ReadonlyArray<string | undefined>,
): HistoryChange[] {
  const changes: HistoryChange[] = [];
  let from: number | undefined;
  let regressionOpen = false;
  for (const [at, after] of values.entries()) {
    if (!after) continue;
    const before = from === undefined ? undefined : values[from];
    const called = before && callChange(before, after);
    if (called && from !== undefined) {
      const [was, now] = [harness[from], harness[at]];
      const harnessChanged = was === undefined || now === undefined ? undefined : was !== now;
      const fell = called.difference.value < 0;
      const mark: HistoryMark =
        harnessChanged === false
          ? 'flaky'
          : fell
            ? 'regressed'
            : regressionOpen
              ? 'recovered'
              : 'improved';
      if (mark !== 'flaky') regressionOpen = fell;
      changes.push({ at, from, mark, ...called, harnessChanged });
    }
    from = at;
  }
  return changes;
}

/** Every task and variant any point reports, in first-seen order, with its line and its changes. */
export function buildHistory(points: readonly HistoryPoint[]): HistorySeries[] {
  const keys = new Map<string, { suite: string; task: string; variant: string }>();
  for (const point of points) {
    for (const row of point.report.tasks) {
      if (!keys.has(rowKey(row))) {
        keys.set(rowKey(row), { suite: row.suite, task: row.task, variant: row.variant });
      }
    }
  }
  const harness = points.map((point) => point.harness);
  return [...keys].map(([key, row]) => {
    const values = points.map((point) => rowValue(point.report, key));
    return { ...row, values, changes: classifyChanges(values, harness) };
  });
}

/** A version of the report the history could not read: named, with why, never fatal. */
export interface SkippedReport {
  label: string;
  why: string;
}

/** What the renderers show: where the reports came from, the readable ones, the skipped ones. */
export interface History {
  /** `reports/reference.json over git`, or the folder read. */
  source: string;
  points: HistoryPoint[];
  skipped: SkippedReport[];
  series: HistorySeries[];
}
