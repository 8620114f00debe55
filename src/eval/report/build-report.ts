import type { FixtureSource } from '../../replay/cassette.js';
import type { Changes } from '../spec/changes-schema.js';
import type { PriceTable } from '../spec/prices.js';
import { priceTable } from '../spec/prices-file.js';
import type { TrialRecord } from '../spec/trial-record.js';
import { type ComparableReport, compareReports, DEFAULT_ALPHA, type TaskKey } from './compare.js';
import { costsOf, runCosts, trialCost } from './cost.js';
import { decideRows } from './decisions.js';
import { DEFAULT_BETA, DEFAULT_DELTA, type DecisionSettings } from './decisions-schema.js';
import { detectionLimits } from './detection.js';
import { evaluateGate, type TaskFloor } from './gate.js';
import { STATISTICS } from './intervals.js';
import { compareNames } from './order.js';
import { type EvalReport, REPORT_SCHEMA_VERSION } from './report-schema.js';
import { suiteBaselines, summarizeTasks } from './summarize.js';
import { listJudgedTrials, summarizeJudges } from './summarize-judges.js';
import { summarizeSuites } from './summarize-suites.js';
import { listFailures, listProvenance, listStaleFixtures } from './trial-lists.js';

export interface BuildReportOptions {
  records: readonly TrialRecord[];
  /** Trials requested per task and variant. */
  trials: number;
  floors: readonly TaskFloor[];
  /** The report to compare against (`--compare FILE` or reports/reference.json). */
  reference?: ComparableReport;
  /** Every row a task file declares (`keyOf`), selected or not: tells "not run" from "gone". */
  declared?: ReadonlySet<string>;
  /** Reference rows that no task declares any more; each fails the gate. */
  gone?: readonly TaskKey[];
  generatedAt: Date | string;
  /** One-sided significance level of the drop test (default 0.05). */
  alpha?: number;
  /** The sequential decisions' other settings (defaults: delta 0.10, beta 0.20, undecided warns). */
  decide?: Partial<Omit<DecisionSettings, 'alpha'>>;
  /** Check floors against the lower bound of their interval. */
  strictFloors?: boolean;
  /** `--compare A,B`: deltas of B (and every other variant) against A, where A ran. */
  deltaReference?: string;
  /** What the checkout changed against the base (`--reference-from`); a lowered reference fails. */
  changes?: Changes;
  /** Prices per model (default: the built-in table); a model without one costs "unknown". */
  prices?: PriceTable;
}

function distinct<T extends string>(values: ReadonlyArray<T | undefined>): T[] {
  const present = values.filter((value): value is T => value !== undefined);
  return [...new Set(present)].sort(compareNames);
}

/**
 * Everything `reports/latest.json` holds, from the run's trial records.
 *
 * @example
 * const report = buildReport({ records, trials: 3, floors, generatedAt: new Date() });
 * process.exitCode = report.gate.passed ? 0 : 1;
 */
export function buildReport(options: BuildReportOptions): EvalReport {
  const { records } = options;
  const generatedAt =
    typeof options.generatedAt === 'string'
      ? options.generatedAt
      : options.generatedAt.toISOString();
  const reference = options.deltaReference;
  const baselines = suiteBaselines(records, reference);
  const prices = options.prices ?? priceTable();
  const of = (pick: (record: TrialRecord) => boolean) => costsOf(records.filter(pick), prices);
  const tasks = summarizeTasks(records, {
    trials: options.trials,
    ...(reference !== undefined && { reference }),
  }).map((row) => ({
    ...row,
    cost: of((r) => r.suite === row.suite && r.task === row.task && r.variant === row.variant),
  }));
  const trialProvenance = listProvenance(records, (record) => trialCost(record, prices));
  const judges = summarizeJudges(records);
  const judgedTrials = listJudgedTrials(records);
  const comparison = options.reference
    ? compareReports(
        options.reference,
        { generatedAt, tasks, trialProvenance },
        {
          ...(options.alpha !== undefined && { alpha: options.alpha }),
          ...(options.declared && { declared: options.declared }),
        },
      )
    : undefined;
  const decisions = decideRows({
    trials: records,
    rows: tasks,
    baselines,
    comparison: comparison?.entries,
    settings: {
      alpha: options.alpha ?? DEFAULT_ALPHA,
      beta: options.decide?.beta ?? DEFAULT_BETA,
      delta: options.decide?.delta ?? DEFAULT_DELTA,
      undecided: options.decide?.undecided ?? 'warn',
      ...(options.decide?.maxTrials !== undefined && { maxTrials: options.decide.maxTrials }),
    },
  });
  const gate = evaluateGate({
    records,
    summaries: tasks,
    floors: options.floors,
    ...(comparison ? { comparison } : {}),
    ...(options.gone ? { gone: options.gone } : {}),
    ...(options.strictFloors ? { strictFloors: true } : {}),
    ...(options.changes ? { changes: options.changes } : {}),
    ...(decisions.rows.length > 0 && { decisions }),
  });
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    generatedAt,
    trials: options.trials,
    fixtureSources: distinct<FixtureSource>(records.map((record) => record.source)),
    models: distinct(records.map((record) => record.model)),
    hosts: distinct(records.map((record) => record.host)),
    statistics: STATISTICS,
    suites: distinct(records.map((record) => record.suite)),
    tasks,
    summary: summarizeSuites(tasks, baselines).map((row) => ({
      ...row,
      cost: of((r) => r.suite === row.suite && r.variant === row.variant),
    })),
    baselines: Object.fromEntries(
      [...baselines].filter((entry): entry is [string, string] => entry[1] !== undefined),
    ),
    failures: listFailures(records),
    staleFixtures: listStaleFixtures(records),
    ...(comparison ? { comparison } : {}),
    ...(decisions.rows.length > 0 && { decisions }),
    ...(options.changes ? { changes: options.changes } : {}),
    detection: detectionLimits(tasks, comparison, options.alpha ?? DEFAULT_ALPHA),
    gate,
    trialProvenance,
    ...(judges && { judges }),
    ...(judgedTrials && { judgedTrials }),
    cost: runCosts(records, prices),
  };
}
