import { escapeHtmlText, escapeText } from '../../core/markdown-text.js';
import { trialLabel } from './format.js';
import type { GradersModel } from './graders-model.js';
import {
  JUDGES_NOTE,
  judgeCallLines,
  judgedTrialLine,
  judgeTable,
  SCORES_NOTE,
  scoreTable,
} from './graders-text.js';

/** What the markdown renderer lends: its GFM table (markdown.ts). */
export type MarkdownTable = (
  head: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  align?: string,
) => string;

function escapedTable(
  table: MarkdownTable,
  { head, cells }: { head: string[]; cells: string[][] },
  align: string,
) {
  return table(
    head,
    cells.map((row) => row.map(escapeText)),
    align,
  );
}

function judgedTrials(graders: GradersModel): string {
  if (graders.judgedTrials.length === 0) return '';
  const lines = graders.judgedTrials.map((trial) => `- ${escapeText(judgedTrialLine(trial))}`);
  return [
    '<details>',
    `<summary>Verdicts per trial (${graders.judgedTrials.length})</summary>`,
    '',
    ...lines,
    '',
    '</details>',
  ].join('\n');
}

/**
 * The graders' sections of `reports/latest.md`: mean scores (shown after the pass@k table), the judges' agreement and
 * calibration with their calls (replayed ones shown as such), the verdicts per trial, and
 * the judge errors apart from the agent's failures. Empty when nothing was scored or judged.
 */
export function gradersMarkdownSections(
  graders: GradersModel | undefined,
  table: MarkdownTable,
): { scores: string[]; judges: string[] } {
  if (!graders) return { scores: [], judges: [] };
  const scores =
    graders.scores.length === 0
      ? []
      : [
          [
            '## Scores in 0..1',
            '',
            escapeText(SCORES_NOTE),
            '',
            escapedTable(table, scoreTable(graders), 'lllrrr'),
          ].join('\n'),
        ];
  const sections: string[] = [];
  if (graders.judges.length > 0) {
    sections.push(
      [
        '## Judges',
        '',
        escapeText(JUDGES_NOTE),
        '',
        escapedTable(table, judgeTable(graders.judges), 'lllllll'),
        '',
        ...judgeCallLines(graders.judges).map((line) => `- ${escapeText(line)}`),
        '',
        judgedTrials(graders),
      ].join('\n'),
    );
  }
  if (graders.judgeErrors.length > 0) {
    const entries = graders.judgeErrors.map(
      (entry) =>
        `- ${escapeHtmlText(trialLabel(entry))}: ${entry.messages.map(escapeText).join('; ')}`,
    );
    sections.push(
      [
        `## Judge errors (${graders.judgeErrors.length})`,
        '',
        "The judge gave no usable verdict on these trials: not counted, and not the agent's failures.",
        '',
        ...entries,
      ].join('\n'),
    );
  }
  return { scores, judges: sections };
}
