import { groupRerecordCommands } from '../trial/rerecord.js';
import { type ChangesView, changesView } from './changes-view.js';
import { type CostView, costView, trialCosts } from './cost-view.js';
import { type DecisionsView, decisionsView, referenceDecisionCells } from './decisions-view.js';
import { type DetectionView, detectionView } from './detection.js';
import { countedCell, describeSources, formatRate, NONE, rateCell, rateNear } from './format.js';
import { deltaWithInterval, rateWithInterval } from './format-interval.js';
import { describeOrigins, providerOf } from './format-provenance.js';
import { FEW_CASES_NOTE, FEW_TASKS_NOTE, suiteDeltaLine } from './format-statistics.js';
import { buildGradersModel, type GradersModel } from './graders-model.js';
import type {
  Comparison,
  EvalReport,
  FailedTrial,
  GateResult,
  StaleFixture,
  TaskSummary,
  VariantSummary,
} from './report-schema.js';
import { type RowMark, rowMarks } from './row-marks.js';

/** A rate at the wanted k, or at the largest k the row has; `text` is how every renderer shows it. */
export interface RateCell {
  k: number | undefined;
  value: number | null;
  text: string;
}

export interface ScoreRow extends TaskSummary {
  /** c/n with the trials that were not counted: "2/2 (1 stale)". */
  counted: string;
  passAtKCell: RateCell;
  passHatKCell: RateCell;
  /** Rates with their 95% interval, "0.67 [0.21, 0.94]"; at k only when the row reaches k. */
  withIntervals: { passAt1: string; passAtK: string; passHatK: string; delta: string };
  /** Mixed models, mixed fixture sources, trials not counted: one mark each. */
  marks: RowMark[];
}

export interface SummaryRow extends VariantSummary {
  passAtKCell: RateCell;
  passHatKCell: RateCell;
  passAt1WithInterval: string;
  /** The paired suite difference against the other variant, as a sentence; undefined without one. */
  deltaLine: string | undefined;
}

/**
 * The report's sections as plain data, computed once from `EvalReport`. The terminal, markdown
 * and HTML renderers only format it.
 */
export interface ReportModel {
  header: {
    source: { label: string; note: string };
    models: string[];
    generatedAt: string;
    trials: number;
    suites: string[];
    /** Simulator token counts are estimates, and the costs section says so. */
    estimatedTokens: boolean;
    /** The hosts the cassettes came from; per origin the trials when more than one contributed. */
    origins: ReturnType<typeof describeOrigins>;
  };
  gate: GateResult;
  /** What the checkout changed against the base (`--reference-from`): the top of every report. */
  changes: ChangesView | undefined;
  scores: {
    k: number;
    /** More than one suite ran, so a suite column earns its width. */
    bySuite: boolean;
    /** The reference variant of every delta, when they all share one. */
    deltaAgainst: string | undefined;
    rows: ScoreRow[];
    /** Some Δ is not distinguishable from noise at this n (the renderers add the note). */
    undecided: boolean;
    /** One line per suite without a Δ saying why, and per row whose trials mixed models. */
    notes: string[];
  };
  chart: { title: string; bars: Array<{ label: string; value: number | null }> };
  summary: SummaryRow[];
  /** Per dataset task: each case's c/n and pass@1 under each variant. */
  cases: CaseTable[];
  /** Said under the suite summary when a row has fewer than 5 tasks (its interval marked †). */
  summaryNote: string | undefined;
  detection: DetectionView;
  costs: TaskSummary[];
  /** What the trials cost in dollars; undefined for a report from before costs. */
  cost: CostView | undefined;
  /** Each trial's recorded cost as shown, by trialCostKey (the HTML's trial view). */
  trialCosts: Record<string, string>;
  comparison: Comparison | undefined;
  /** Each compared row's sequential decision, as a table (undefined when nothing was compared). */
  decisions: DecisionsView | undefined;
  /** The decision of each row decided against the reference, by keyOf: the comparison's test cell. */
  referenceDecisions: Record<string, string>;
  stale: { entries: StaleFixture[]; commands: string[] };
  /** Failed and errored trials; judge errors are in `graders`, apart from the agent's failures. */
  failures: FailedTrial[];
  /** Mean scores, judges' agreement and calibration; undefined when nothing was scored or judged. */
  graders: GradersModel | undefined;
}

function cell(rates: TaskSummary['passAtK'], k: number): RateCell {
  return { ...rateNear(rates, k), text: rateCell(rates, k) };
}

/** The interval at k only when the cell shows k itself (not a shorter row's largest k). */
function withInterval(
  rates: TaskSummary['passAtK'],
  intervals: TaskSummary['intervals']['passAtK'],
  k: number,
): string {
  return rateNear(rates, k).k === k
    ? rateWithInterval(rates[String(k)], intervals[String(k)])
    : rateCell(rates, k);
}

function chart(report: EvalReport): ReportModel['chart'] {
  const bars = report.tasks.map((row) => {
    const { k, value } = rateNear(row.passHatK, report.trials);
    const shortfall = k !== undefined && k !== report.trials ? ` (k=${k})` : '';
    return { label: `${row.task} ${row.variant}${shortfall}`, value };
  });
  return { title: `pass^${report.trials} per task and variant`, bars };
}

/** One dataset task's cases, a row per case, a cell per variant: "2/3 (0.67)". */
export interface CaseTable {
  suite: string;
  task: string;
  title: string;
  variants: string[];
  rows: Array<{ case: string; cells: string[] }>;
}

function caseTables(report: EvalReport): CaseTable[] {
  const byTask = new Map<string, TaskSummary[]>();
  for (const row of report.tasks.filter((entry) => entry.cases)) {
    const key = JSON.stringify([row.suite, row.task]);
    byTask.set(key, [...(byTask.get(key) ?? []), row]);
  }
  return [...byTask.values()].map((rows) => {
    const ids = [...new Set(rows.flatMap((row) => (row.cases ?? []).map((entry) => entry.case)))];
    return {
      suite: rows[0]!.suite,
      task: rows[0]!.task,
      title: rows[0]!.title,
      variants: rows.map((row) => row.variant),
      rows: ids.map((id) => ({
        case: id,
        cells: rows.map((row) => {
          const rate = row.cases?.find((entry) => entry.case === id);
          return rate ? `${rate.passed}/${rate.n} (${formatRate(rate.passAt1)})` : NONE;
        }),
      })),
    };
  });
}

/** Why a suite shows no Δ: it ran one variant, or its baseline did not run. */
function noDeltaNotes(report: EvalReport): string[] {
  return report.suites.flatMap((suite) => {
    const variants = [
      ...new Set(report.tasks.filter((row) => row.suite === suite).map((row) => row.variant)),
    ];
    const baseline = report.baselines?.[suite];
    if (variants.length === 1) {
      return [
        `No Δ for suite ${suite}: only variant ${variants[0]} ran; a Δ needs a second variant to compare with its baseline (declare one, or select two with --variant)`,
      ];
    }
    if (baseline !== undefined && variants.length > 1 && !variants.includes(baseline)) {
      return [
        `No Δ for suite ${suite}: its baseline variant ${baseline} did not run; select it too, or pick two variants with --compare A,B`,
      ];
    }
    return [];
  });
}

/** A row whose trials used more than one model: its rates mix them. */
function mixedModelNotes(report: EvalReport): string[] {
  return report.tasks.flatMap((row) =>
    row.mixedModels
      ? [
          `⚠ ${row.task} ${row.variant}: its trials used different models (${row.mixedModels.join(', ')}), so its rates mix them; re-record it with one --model`,
        ]
      : [],
  );
}

/**
 * @example
 * const model = buildReportModel(report);
 * process.stdout.write(renderTerminal(model));
 */
export function buildReportModel(report: EvalReport): ReportModel {
  const k = report.trials;
  const marksOf = rowMarks(report);
  const against = new Set(report.tasks.flatMap((row) => (row.delta ? [row.delta.against] : [])));
  return {
    header: {
      source: describeSources(
        report.fixtureSources,
        report.trialProvenance.flatMap((trial) => providerOf(trial) ?? []),
      ),
      models: report.models,
      generatedAt: report.generatedAt,
      trials: k,
      suites: report.suites,
      estimatedTokens: report.fixtureSources.includes('simulator'),
      origins: describeOrigins(report),
    },
    gate: report.gate,
    changes: report.changes ? changesView(report.changes, report.comparison) : undefined,
    scores: {
      k,
      bySuite: new Set(report.tasks.map((row) => row.suite)).size > 1,
      deltaAgainst: against.size === 1 ? [...against][0] : undefined,
      rows: report.tasks.map((row) => ({
        ...row,
        counted: countedCell(row),
        passAtKCell: cell(row.passAtK, k),
        passHatKCell: cell(row.passHatK, k),
        withIntervals: {
          passAt1: `${rateWithInterval(row.passAt1, row.intervals.passAt1)}${row.fewCases ? ' †' : ''}`,
          passAtK: withInterval(row.passAtK, row.intervals.passAtK, k),
          passHatK: withInterval(row.passHatK, row.intervals.passHatK, k),
          delta: row.delta ? deltaWithInterval(row.delta) : '',
        },
        marks: marksOf(row),
      })),
      undecided: report.tasks.some((row) => row.delta?.distinguishable === false),
      notes: [
        ...noDeltaNotes(report),
        ...mixedModelNotes(report),
        ...(report.tasks.some((row) => row.fewCases) ? [FEW_CASES_NOTE] : []),
      ],
    },
    chart: chart(report),
    summary: report.summary.map((row) => ({
      ...row,
      passAtKCell: cell(row.passAtK, k),
      passHatKCell: cell(row.passHatK, k),
      passAt1WithInterval: `${rateWithInterval(row.passAt1, row.intervals.passAt1)}${row.fewTasks ? ' †' : ''}`,
      deltaLine: row.delta ? suiteDeltaLine(row) : undefined,
    })),
    cases: caseTables(report),
    summaryNote: report.summary.some((row) => row.fewTasks) ? FEW_TASKS_NOTE : undefined,
    detection: detectionView(
      report.detection,
      new Set(report.tasks.map((row) => row.suite)).size > 1,
    ),
    costs: report.tasks,
    cost: costView(report),
    trialCosts: trialCosts(report),
    comparison: report.comparison,
    decisions: decisionsView(report.decisions),
    referenceDecisions: referenceDecisionCells(report.decisions),
    stale: {
      entries: report.staleFixtures,
      commands: groupRerecordCommands(
        report.staleFixtures.flatMap((entry) => entry.rerecordCommand ?? []),
      ),
    },
    failures: report.failures.filter((failure) => failure.outcome !== 'judge_error'),
    graders: buildGradersModel(report),
  };
}
