import { badge, clear, el } from './dom.js';
import { label, type TrialEntry, trials, variantClass } from './page-data.js';

/**
 * The trial list's rows: a group header per suite, task and variant (with its pass count), then
 * its trials, filtered by a query; only the rows in sight are drawn.
 */

/** What a drawn row needs of its list: the selection, the pinned trial, and a way to select. */
export interface RowOwner {
  selected: number;
  pinned: number;
  select(at: number): void;
}

/** A row of the list: a group header, or a trial by position. */
export type Row = { group: TrialEntry } | { at: number };

export const ROW_HEIGHT = 26;

function groupKey(t: TrialEntry): string {
  return `${t.suite}\u0000${t.task}\u0000${t.variant}`;
}
const groupCounts = new Map<string, { passed: number; counted: number; all: number }>();
for (const t of trials) {
  const counts = groupCounts.get(groupKey(t)) ?? { passed: 0, counted: 0, all: 0 };
  counts.all++;
  if (t.outcome === 'passed' || t.outcome === 'failed') counts.counted++;
  if (t.outcome === 'passed') counts.passed++;
  groupCounts.set(groupKey(t), counts);
}
const haystacks = trials.map((t) =>
  [
    t.suite,
    t.task,
    t.variant,
    t.case ? `case ${t.case}` : '',
    `trial ${t.trial}`,
    t.outcome,
    t.message,
  ]
    .join(' ')
    .toLowerCase(),
);
const FIELDS = ['suite', 'task', 'variant', 'outcome', 'trial'] as const;

/**
 * Words match anywhere (suite, task, variant, outcome, message); field:value matches that
 * field exactly, spaces left out: suite:, task:, variant:, outcome:, trial:.
 */
function matcher(query: string): (t: TrialEntry, at: number) => boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return (t, at) =>
    words.every((word) => {
      const colon = word.indexOf(':');
      const field = FIELDS.find((name) => name === word.slice(0, colon));
      if (colon > 0 && field) {
        return String(t[field]).toLowerCase().replace(/\s/g, '') === word.slice(colon + 1);
      }
      return haystacks[at]!.includes(word);
    });
}

/** The list's rows: a group header where suite, task or variant changes, then its trials. */
export function listRows(query: string): Row[] {
  const match = matcher(query);
  const rows: Row[] = [];
  let last: string | null = null;
  trials.forEach((t, at) => {
    if (!match(t, at)) return;
    if (groupKey(t) !== last) {
      last = groupKey(t);
      rows.push({ group: t });
    }
    rows.push({ at });
  });
  return rows;
}

function rowNode(list: RowOwner, row: Row): HTMLElement {
  if ('group' in row) {
    const t = row.group;
    const c = groupCounts.get(groupKey(t))!;
    return el(
      'div',
      { cls: 'row group' },
      el('span', { cls: `variant ${variantClass(t.variant)}`, text: t.variant }),
      ` ${t.task} \u00b7 ${t.suite}`,
      el('span', { cls: 'muted', text: ` ${c.passed}/${c.counted} passed` }),
    );
  }
  const trial = trials[row.at]!;
  const classes = `row trial${row.at === list.selected ? ' selected' : ''}${row.at === list.pinned ? ' pinned' : ''}`;
  return el(
    'div',
    {
      cls: classes,
      role: 'option',
      'aria-selected': row.at === list.selected ? 'true' : 'false',
      'data-i': row.at,
      'data-testid': 'trial-row',
      'data-trial': label(trial),
      title: label(trial),
      onclick: () => list.select(row.at),
    },
    el('span', { cls: 'n', text: `${trial.case ? `${trial.case} ` : ''}#${trial.trial}` }),
    badge(trial.outcome),
    el('span', { cls: 'msg', text: trial.message }),
  );
}

/** Only the rows in sight (and a few around them) exist. */
export function drawRows(
  list: RowOwner,
  rows: readonly Row[],
  scroller: HTMLElement,
  inner: HTMLElement,
): void {
  const first = Math.max(0, Math.floor(scroller.scrollTop / ROW_HEIGHT) - 10);
  const last = Math.min(
    rows.length,
    first + Math.ceil((scroller.clientHeight || 800) / ROW_HEIGHT) + 20,
  );
  clear(inner);
  for (let at = first; at < last; at++) {
    const node = rowNode(list, rows[at]!);
    node.style.top = `${at * ROW_HEIGHT}px`;
    inner.appendChild(node);
  }
}
