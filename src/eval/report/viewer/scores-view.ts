import { el, table } from './dom.js';
import { rate, unique } from './format.js';
import { model, type ScoreRow } from './page-data.js';
import { costTable, scoreTable, summaryTable } from './scores.js';

function dollarsSection(root: HTMLElement): void {
  const d = model.cost;
  if (!d) return;
  root.appendChild(el('h2', { text: d.title }));
  root.appendChild(table(d.head, d.rows, [2, 3, 4, 5], 'cost'));
  root.appendChild(el('h3', { text: 'Per variant' }));
  root.appendChild(table(d.variantHead, d.variants, [2, 3, 4, 5], 'cost-variants'));
  for (const line of d.lines) {
    root.appendChild(
      el('p', {
        cls: line.indexOf('  ') === 0 ? 'muted' : null,
        'data-testid': 'cost-line',
        text: line.trim(),
      }),
    );
  }
}

/** The reference comparison, the decisions and the re-record commands, when there are any. */
function afterCosts(root: HTMLElement): void {
  const c = model.comparison;
  if (c) {
    root.appendChild(el('h2', { text: `Compared with the reference (${c.referenceGeneratedAt})` }));
    const rows = c.entries.map((e) => [
      e.task,
      e.variant,
      `${rate(e.passAt1.before)} \u2192 ${rate(e.passAt1.after)}`,
      e.passHatK.k === null ? '' : String(e.passHatK.k),
      `${rate(e.passHatK.before)} \u2192 ${rate(e.passHatK.after)}`,
      e.flag,
    ]);
    root.appendChild(
      table(['Task', 'Variant', 'pass@1', 'k', 'pass^k', 'Change'], rows, null, 'comparison'),
    );
  }
  const d = model.decisions;
  if (d) {
    root.appendChild(el('h2', { text: d.title }));
    root.appendChild(table(d.head, d.rows, [4, 6], 'decisions'));
    root.appendChild(el('p', { cls: 'muted', text: d.note }));
  }
  if (model.staleCommands.length) {
    root.appendChild(el('h2', { text: 'Re-record the stale or missing fixtures' }));
    root.appendChild(el('pre', { text: model.staleCommands.join('\n') }));
  }
}

/**
 * The scores view: the suite summary with each variant's Δ against the baseline, the scores
 * with the variants as rows under their task (and marks for mixed models and fixture
 * problems), tokens and timing, costs, the comparison with a reference, re-record commands.
 * `onTrialsOf` opens a row's trials.
 */
export function scoresView(root: HTMLElement, onTrialsOf: (row: ScoreRow) => void): void {
  root.appendChild(summaryTable());
  root.appendChild(el('h2', { text: 'Scores' }));
  root.appendChild(
    el('p', {
      cls: 'muted',
      text:
        'Rates with their 95% interval [lower, upper] (Wilson; \u0394: Newcombe), ' +
        `each variant against the baseline of its suite.${model.undecided ? ` ${model.notDistinguishable}` : ''}`,
    }),
  );
  for (const note of model.notes) {
    root.appendChild(el('p', { cls: 'muted', 'data-testid': 'score-note', text: note }));
  }
  for (const suite of unique(model.rows.map((r) => r.suite))) {
    if (model.bySuite) root.appendChild(el('h3', { text: suite }));
    root.appendChild(
      scoreTable(
        model.rows.filter((r) => r.suite === suite),
        onTrialsOf,
      ),
    );
  }
  for (const c of model.cases) {
    root.appendChild(
      el('h3', { text: `Cases of ${c.task} ${c.title} (the task\u2019s rates are their means)` }),
    );
    const rows = c.rows.map((r) => [r.case, ...r.cells]);
    root.appendChild(
      table(
        ['Case', ...c.variants],
        rows,
        c.variants.map((_, i) => i + 1),
        'cases',
      ),
    );
  }
  root.appendChild(el('h2', { text: 'Tokens and timing' }));
  root.appendChild(
    el('p', {
      cls: 'muted',
      text: `Means per counted trial; model latency as recorded; tool time is virtual when replayed.${model.header.estimatedTokens ? ' Simulator token counts are estimates.' : ''}`,
    }),
  );
  root.appendChild(costTable());
  dollarsSection(root);
  afterCosts(root);
}
