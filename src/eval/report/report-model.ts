import { groupRerecordCommands } from '../rerecord.js';
import { countedCell, describeSources, rateCell, rateNear } from './format.js';
import type {
  Comparison,
  EvalReport,
  FailedTrial,
  GateResult,
  StaleFixture,
  TaskSummary,
  VariantSummary,
} from './report-schema.js';

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
}

export interface SummaryRow extends VariantSummary {
  passAtKCell: RateCell;
  passHatKCell: RateCell;
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
  };
  gate: GateResult;
  scores: {
    k: number;
    /** More than one suite ran, so a suite column earns its width. */
    bySuite: boolean;
    /** The reference variant of every delta, when they all share one. */
    deltaAgainst: string | undefined;
    rows: ScoreRow[];
  };
  chart: { title: string; bars: Array<{ label: string; value: number | null }> };
  summary: SummaryRow[];
  costs: TaskSummary[];
  comparison: Comparison | undefined;
  stale: { entries: StaleFixture[]; commands: string[] };
  failures: FailedTrial[];
}

function cell(rates: TaskSummary['passAtK'], k: number): RateCell {
  return { ...rateNear(rates, k), text: rateCell(rates, k) };
}

function chart(report: EvalReport): ReportModel['chart'] {
  const bars = report.tasks.map((row) => {
    const { k, value } = rateNear(row.passHatK, report.trials);
    const shortfall = k !== undefined && k !== report.trials ? ` (k=${k})` : '';
    return { label: `${row.task} ${row.variant}${shortfall}`, value };
  });
  return { title: `pass^${report.trials} per task and variant`, bars };
}

/**
 * @example
 * const model = buildReportModel(report);
 * process.stdout.write(renderTerminal(model));
 */
export function buildReportModel(report: EvalReport): ReportModel {
  const k = report.trials;
  const against = new Set(report.tasks.flatMap((row) => (row.delta ? [row.delta.against] : [])));
  return {
    header: {
      source: describeSources(report.fixtureSources),
      models: report.models,
      generatedAt: report.generatedAt,
      trials: k,
      suites: report.suites,
      estimatedTokens: report.fixtureSources.includes('simulator'),
    },
    gate: report.gate,
    scores: {
      k,
      bySuite: new Set(report.tasks.map((row) => row.suite)).size > 1,
      deltaAgainst: against.size === 1 ? [...against][0] : undefined,
      rows: report.tasks.map((row) => ({
        ...row,
        counted: countedCell(row),
        passAtKCell: cell(row.passAtK, k),
        passHatKCell: cell(row.passHatK, k),
      })),
    },
    chart: chart(report),
    summary: report.summary.map((row) => ({
      ...row,
      passAtKCell: cell(row.passAtK, k),
      passHatKCell: cell(row.passHatK, k),
    })),
    costs: report.tasks,
    comparison: report.comparison,
    stale: {
      entries: report.staleFixtures,
      commands: groupRerecordCommands(
        report.staleFixtures.flatMap((entry) => entry.rerecordCommand ?? []),
      ),
    },
    failures: report.failures,
  };
}
