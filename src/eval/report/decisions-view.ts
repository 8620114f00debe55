import { keyOf } from '../spec/selection.js';
import type { Decisions, RowDecision } from './decisions-schema.js';

/** The decisions as every renderer shows them: one title, one table, one note. */
export interface DecisionsView {
  title: string;
  head: string[];
  rows: string[][];
  note: string;
}

const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(2)}`;

/** `drop after 8`, `no drop > 0.10 after 12`, `undecided at 3, ~20 more`. */
export function decisionStateText(row: RowDecision, delta: number): string {
  if (row.state === 'drop') return `drop (after ${row.rounds})`;
  if (row.state === 'no-drop') return `no drop > ${delta.toFixed(2)} (after ${row.rounds})`;
  const more = row.moreRounds === undefined ? 'not likely at this rate' : `~${row.moreRounds} more`;
  return `undecided at ${row.rounds} (${more})`;
}

/** The comparison table's test cell of each row decided against the reference, by keyOf. */
export function referenceDecisionCells(decisions: Decisions | undefined): Record<string, string> {
  const cells: Record<string, string> = {};
  for (const row of decisions?.rows ?? []) {
    if (row.kind === 'reference') cells[keyOf(row)] = decisionStateText(row, decisions!.delta);
  }
  return cells;
}

/** The decisions section of every report; undefined when no row was compared. */
export function decisionsView(decisions: Decisions | undefined): DecisionsView | undefined {
  if (!decisions || decisions.rows.length === 0) return undefined;
  const rows = decisions.rows.map((row) => [
    row.task,
    row.variant,
    row.kind === 'reference' ? `reference (${row.referenceTrials ?? 0} trials)` : row.against,
    decisionStateText(row, decisions.delta),
    `${row.recorded}`,
    `${signed(row.interval.lower)} to ${signed(row.interval.upper)}`,
    row.adjustedPValue.toFixed(3),
  ]);
  const cap =
    decisions.maxTrials === undefined ? '' : `, at most ${decisions.maxTrials} trials a row`;
  return {
    title: `Decisions (drop of pass@1 larger than ${decisions.delta.toFixed(2)}?)`,
    head: ['Task', 'Variant', 'Against', 'Decision', 'Trials', 'Drop (interval)', 'Holm p'],
    rows,
    note:
      `Each row is decided from its trials in trial order, and stays decided (${decisions.method}). ` +
      `A drop fails the gate, holding false alarms at ${decisions.alpha} for the run; "no drop > ${decisions.delta.toFixed(2)}" is wrong at most ${decisions.beta} of the time; ` +
      `undecided ${decisions.undecided === 'fail' ? 'fails (--undecided fail)' : 'warns'}${cap}. ` +
      'Record the open rows until they are decided: npm run record -- --until-decided.' +
      (decisions.notDecided?.length
        ? ` Not decided: ${decisions.notDecided.map((entry) => `${entry.row} (${entry.why})`).join('; ')}.`
        : ''),
  };
}

/** The decisions as a markdown section (the markdown report and the pull request comment). */
export function decisionsMarkdown(
  view: DecisionsView | undefined,
  escapeCell: (text: string) => string,
  table: (
    head: readonly string[],
    rows: ReadonlyArray<readonly string[]>,
    align?: string,
  ) => string,
): string {
  if (!view) return '';
  const rows = view.rows.map((row) => row.map(escapeCell));
  return [
    `### ${escapeCell(view.title)}`,
    '',
    table(view.head, rows, 'llllrlr'),
    '',
    `<sub>${escapeCell(view.note)}</sub>`,
  ].join('\n');
}
