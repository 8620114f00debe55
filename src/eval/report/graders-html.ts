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
import { htmlText } from './html-text.js';

function htmlTable(
  head: readonly string[],
  cells: ReadonlyArray<readonly string[]>,
  testId: string,
) {
  const header = `<tr>${head.map((cell) => `<th>${htmlText(cell)}</th>`).join('')}</tr>`;
  const rows = cells.map(
    (row) => `<tr>${row.map((cell) => `<td>${htmlText(cell)}</td>`).join('')}</tr>`,
  );
  return `<table data-testid="${testId}">${header}${rows.join('')}</table>`;
}

function list(lines: readonly string[]): string {
  return `<ul>${lines.map((line) => `<li>${htmlText(line)}</li>`).join('')}</ul>`;
}

/**
 * The graders' part of `reports/latest.html`, rendered once on the server as static markup (no
 * script needed), folded in a `<details>` below the viewer: mean scores, the judges' agreement
 * and calibration with their calls, the verdicts per trial and the judge errors. Empty when
 * nothing was scored or judged. Kept in its own function so the viewer can place it where it likes.
 */
export function gradersHtml(graders: GradersModel | undefined): string {
  if (!graders) return '';
  const judged = graders.judges.length > 0 ? ', judges' : '';
  const errors =
    graders.judgeErrors.length > 0 ? `, ${graders.judgeErrors.length} judge errors` : '';
  return `<details data-testid="graders"><summary>Scores in 0..1${judged}${errors}</summary>${gradersBody(graders)}</details>`;
}

function gradersBody(graders: GradersModel): string {
  const parts: string[] = [];
  if (graders.scores.length > 0) {
    const { head, cells } = scoreTable(graders);
    parts.push(
      '<h2>Scores in 0..1</h2>',
      `<p class="muted">${htmlText(SCORES_NOTE)}</p>`,
      htmlTable(head, cells, 'score-means'),
    );
  }
  if (graders.judges.length > 0) {
    const { head, cells } = judgeTable(graders.judges);
    parts.push(
      '<h2>Judges</h2>',
      `<p class="muted">${htmlText(JUDGES_NOTE)}</p>`,
      htmlTable(head, cells, 'judges'),
      list(judgeCallLines(graders.judges)),
    );
    if (graders.judgedTrials.length > 0) {
      parts.push(
        `<details data-testid="judged-trials"><summary>Verdicts per trial (${graders.judgedTrials.length})</summary>${list(graders.judgedTrials.map(judgedTrialLine))}</details>`,
      );
    }
  }
  if (graders.judgeErrors.length > 0) {
    parts.push(
      `<h2>Judge errors (${graders.judgeErrors.length})</h2>`,
      '<p class="muted">The judge gave no usable verdict on these trials: not counted, and not the agent’s failures.</p>',
      list(
        graders.judgeErrors.map((entry) => `${trialLabel(entry)}: ${entry.messages.join('; ')}`),
      ),
    );
  }
  return parts.join('\n');
}
