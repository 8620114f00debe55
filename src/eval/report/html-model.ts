import { formatDelta } from './format.js';
import { deltaWithInterval, NOT_DISTINGUISHABLE_NOTE } from './format-interval.js';
import { suiteDeltaLine } from './format-statistics.js';
import type { ReportModel, SummaryRow } from './report-model.js';
import type { SuiteDelta, VariantDelta } from './report-schema.js';

/** A Δ as the page shows it: the markdown's text ("+0.33 [−0.29, +0.79] ~"), and the numbers the forest plot draws. */
export interface ShownDelta {
  against: string;
  text: string;
  value: number | null;
  lower: number | null;
  upper: number | null;
  distinguishable: boolean | null;
}

function shownDelta(delta: VariantDelta | SuiteDelta): ShownDelta {
  return {
    against: delta.against,
    text: deltaWithInterval(delta),
    value: delta.passAt1,
    lower: delta.passAt1Interval?.lower ?? null,
    upper: delta.passAt1Interval?.upper ?? null,
    distinguishable: delta.distinguishable,
  };
}

function shownRows(model: ReportModel) {
  return model.scores.rows.map((row) => {
    // Every variant but its suite's baseline has its Δ in the report (any number of variants).
    const { delta } = row;
    return {
      suite: row.suite,
      task: row.task,
      title: row.title,
      variant: row.variant,
      counted: row.counted,
      withIntervals: row.withIntervals,
      passHatKValue: row.passHatKCell.value,
      passAtK: row.passAtK,
      passHatK: row.passHatK,
      intervals: { passAtK: row.intervals.passAtK, passHatK: row.intervals.passHatK },
      tokens: row.tokens,
      steps: row.steps,
      toolCalls: row.toolCalls,
      toolErrors: row.toolErrors,
      unconfirmedWrites: row.unconfirmedWrites,
      modelLatencyMs: row.modelLatencyMs,
      toolMs: row.toolMs,
      ...(delta && {
        delta: {
          ...shownDelta(delta),
          passHatK: formatDelta(delta.passHatK),
        },
      }),
      marks: row.marks,
    };
  });
}

function shownSummary(model: ReportModel) {
  return model.summary.map((row: SummaryRow) => {
    const { delta } = row;
    return {
      suite: row.suite,
      variant: row.variant,
      tasks: row.tasks,
      excludedTasks: row.excludedTasks,
      passAt1: row.passAt1WithInterval,
      passAtK: row.passAtKCell.text,
      passHatK: row.passHatKCell.text,
      tokens: row.tokens,
      ...(delta && {
        delta: {
          ...shownDelta(delta),
          tasks: delta.tasks,
          sentence: suiteDeltaLine({ ...row, delta }),
        },
      }),
    };
  });
}

/**
 * What the page shows of the report model: the markdown's texts (rates with intervals, Δ
 * sentences) so both read alike, plus the numbers the plots draw (rates for every k, Δ ends),
 * every variant's Δ against the baseline whatever the number of variants, and the row marks.
 */
export function htmlModel(model: ReportModel) {
  const rows = shownRows(model);
  return {
    header: model.header,
    gate: model.gate,
    k: model.scores.k,
    bySuite: model.scores.bySuite,
    rows,
    summary: shownSummary(model),
    summaryNote: model.summaryNote ?? null,
    changes: model.changes ?? null,
    // With more than two variants, the report's own rows have no Δ to be undecided.
    undecided: rows.some((row) => row.delta?.distinguishable === false),
    notDistinguishable: NOT_DISTINGUISHABLE_NOTE,
    // Why a suite has no Δ, and the † of a task over 2-4 cases, one line each (mixed-model rows
    // are marked on the row instead).
    notes: model.scores.notes.filter((note) => note.startsWith('No Δ') || note.startsWith('†')),
    // A task over cases: c/n (pass@1) per case and variant.
    cases: model.cases,
    comparison: model.comparison,
    decisions: model.decisions ?? null,
    staleCommands: model.stale.commands,
    // What the trials cost: the markdown's tables and sentences (null before costs).
    cost: model.cost ?? null,
  };
}
