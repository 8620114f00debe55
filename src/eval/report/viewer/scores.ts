import { type Cell, el, table } from './dom.js';
import { amount, mean, unique } from './format.js';
import { model, type ScoreRow, variantClass } from './page-data.js';

type Delta = NonNullable<ScoreRow['delta']>;

/** "vs baseline" when every Δ of these rows is against one variant, else each cell says so. */
function againstOf(rows: ReadonlyArray<{ delta?: { against: string } }>): string {
  const against = unique(rows.flatMap((row) => (row.delta ? [row.delta.against] : [])));
  return against.length === 1 ? ` vs ${against[0]}` : '';
}

function deltaCell(delta: { text: string; against: string }, suffix: string): string {
  return suffix ? delta.text : `${delta.text} vs ${delta.against}`;
}

export function summaryTable(): HTMLElement {
  const k = model.k;
  const rows = model.summary;
  const suffix = againstOf(rows);
  const body = rows.map((r) => [
    r.suite,
    r.variant,
    r.tasks + (r.excludedTasks.length ? ` (left out: ${r.excludedTasks.join(', ')})` : ''),
    r.passAt1,
    r.passAtK,
    r.passHatK,
    amount(r.tokens.input),
    amount(r.tokens.output),
    r.delta ? deltaCell(r.delta, suffix) : '',
  ]);
  const section = el(
    'section',
    { 'data-testid': 'suite-summary' },
    el('h2', { text: 'Suite summary' }),
    el('p', {
      cls: 'muted',
      text:
        'Means over tasks (intervals: bootstrap over tasks and the trials within each); ' +
        'a task with no counted trial is left out and named. \u0394: paired by task.',
    }),
    table(
      [
        'Suite',
        'Variant',
        'Tasks',
        'pass@1',
        `pass@${k}`,
        `pass^${k}`,
        'Input',
        'Output',
        `\u0394 pass@1${suffix}`,
      ],
      body,
      [2, 3, 4, 5, 6, 7, 8],
    ),
  );
  for (const r of rows) {
    if (r.delta) {
      section.appendChild(
        el('div', { cls: 'muted', 'data-testid': 'suite-delta', text: r.delta.sentence }),
      );
    }
  }
  if (model.summaryNote) {
    section.appendChild(
      el('div', { cls: 'muted', 'data-testid': 'suite-note', text: model.summaryNote }),
    );
  }
  return section;
}

function markList(marks: ScoreRow['marks']): HTMLElement {
  return el(
    'span',
    null,
    ...marks.map((m) =>
      el('span', {
        cls: `mark mark-${m.kind}`,
        'data-testid': 'mark',
        'data-kind': m.kind,
        title: m.title,
        text: m.text,
      }),
    ),
  );
}

/** A row's cells after its task and title: variant, rates, Δ, marks and its trials button. */
function scoreCells(r: ScoreRow, suffix: string, onTrialsOf: (row: ScoreRow) => void): Cell[] {
  const bar = el('span', { cls: 'bar' });
  bar.style.width = `${Math.round((r.passHatKValue || 0) * 40)}px`;
  const delta: Delta | undefined = r.delta;
  return [
    el('span', { cls: `variant ${variantClass(r.variant)}`, text: r.variant }),
    r.counted,
    r.withIntervals.passAt1,
    r.withIntervals.passAtK,
    el('span', null, bar, ` ${r.withIntervals.passHatK}`),
    delta ? deltaCell(delta, suffix) : '',
    delta ? delta.passHatK : '',
    markList(r.marks),
    el('button', { 'data-action': 'trials-of', text: 'trials', onclick: () => onTrialsOf(r) }),
  ];
}

/** One table per suite; a task's variants are rows under it, its id and title spanning them. */
export function scoreTable(
  rows: readonly ScoreRow[],
  onTrialsOf: (row: ScoreRow) => void,
): HTMLElement {
  const k = model.k;
  const suffix = againstOf(rows);
  const head = [
    'Task',
    'Title',
    'Variant',
    'c/n',
    'pass@1',
    `pass@${k}`,
    `pass^${k}`,
    `\u0394 pass@1${suffix}`,
    `\u0394 pass^k${suffix}`,
    'Marks',
    '',
  ];
  const body = el('tbody', null);
  rows.forEach((r, at) => {
    const first = at === 0 || rows[at - 1]?.task !== r.task;
    const span = rows.filter((x) => x.task === r.task).length;
    const tr = el('tr', {
      'data-testid': 'score-row',
      'data-task': r.task,
      'data-variant': r.variant,
      cls: first ? 'task-first' : '',
    });
    if (first) {
      tr.appendChild(el('th', { rowspan: span, scope: 'rowgroup', text: r.task }));
      tr.appendChild(el('td', { rowspan: span, text: r.title }));
    }
    scoreCells(r, suffix, onTrialsOf).forEach((cell, i) => {
      const td = el('td', {
        cls: i >= 1 && i <= 6 ? 'num' : null,
        'data-testid': i === 5 ? 'delta' : null,
      });
      if (typeof cell === 'string') td.textContent = cell;
      else if (cell) td.appendChild(cell);
      tr.appendChild(td);
    });
    body.appendChild(tr);
  });
  const headRow = el('tr', null, ...head.map((h) => el('th', { text: h })));
  return el('table', { 'data-testid': 'scores', cls: 'scores' }, el('thead', null, headRow), body);
}

export function costTable(): HTMLElement {
  const rows = model.rows.map((r) => [
    r.task,
    r.variant,
    amount(r.tokens.input),
    amount(r.tokens.output),
    amount(r.tokens.cacheRead),
    amount(r.tokens.cacheWrite),
    mean(r.steps),
    mean(r.toolCalls),
    mean(r.toolErrors),
    mean(r.unconfirmedWrites),
    amount(r.modelLatencyMs.p50),
    amount(r.modelLatencyMs.p95),
    amount(r.toolMs),
  ]);
  return table(
    [
      'Task',
      'Variant',
      'Input',
      'Output',
      'Cache read',
      'Cache write',
      'Steps',
      'Tool calls',
      'Tool errors',
      'Unconfirmed writes',
      'Model p50 ms',
      'Model p95 ms',
      'Tool ms',
    ],
    rows,
    [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
    'costs',
  );
}
