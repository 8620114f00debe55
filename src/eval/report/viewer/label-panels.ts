import { el, table } from './dom.js';
import type { LabelItem, LabelState, Pending } from './label-api.js';
import { byKey, detailOf, textOf } from './page-data.js';

/** The parts of the labelling view: the calibration table, the list of items, the current item. */

export const itemName = (item: LabelItem) =>
  `${item.task} ${item.variant} trial ${item.trial} \u00b7 ${item.check}`;

export function calibrationTable(state: LabelState): HTMLTableElement {
  return table(
    ['check', 'human-labels file', 'labelled', 'judge vs humans', 'stale labels'],
    state.checks.map((check) => [
      `${check.task} ${check.check}`,
      check.file,
      String(check.calibration.labelled),
      check.text,
      String(check.stale),
    ]),
    [2, 4],
    'label-calibration',
  );
}

function mark(item: LabelItem): string {
  if (!item.human) return '\u2014';
  const { label, standing } = item.human;
  return standing === 'current' ? label : `${label} (${standing})`;
}

/** The trial's final answer, as the page holds it. */
function answerOf(item: LabelItem): string {
  const at = byKey.get(
    [item.suite, item.task, item.variant, String(item.trial)].map(encodeURIComponent).join('/'),
  );
  const detail = at === undefined ? null : detailOf(at);
  if (!detail || !('transcript' in detail) || !detail.transcript) return '(no answer decoded)';
  return textOf(detail.transcript.finalAnswer);
}

export function itemList(state: LabelState, at: number): HTMLOListElement {
  const list = el('ol', { cls: 'label-list', 'data-testid': 'label-list' });
  state.items.forEach((entry, index) => {
    const li = el('li', { 'data-testid': 'label-item', cls: index === at ? 'current' : '' });
    li.append(`${itemName(entry)}: `, el('b', { text: mark(entry) }));
    list.append(li);
  });
  return list;
}

export function itemPanel(
  state: LabelState,
  at: number,
  pending: Pending,
  [score, note]: readonly [HTMLInputElement, HTMLInputElement],
): HTMLElement {
  const item = state.items[at]!;
  const judge = `judge: ${item.verdict}${item.score === null ? '' : `, score ${item.score.toFixed(2)}`}`;
  const stale =
    item.human?.standing === 'stale'
      ? `stale: labelled ${item.human.label} for cassette ${item.human.cassette?.slice(0, 19)}…; the trial was re-recorded since, label it again`
      : '';
  return el(
    'section',
    { cls: 'label-item', 'data-testid': 'label-current', 'data-item': itemName(item) },
    el('h3', { text: `${at + 1}/${state.items.length} ${itemName(item)}` }),
    el('pre', { cls: 'answer', text: answerOf(item) }),
    el('p', { text: judge }),
    item.reasoning ? el('p', { cls: 'muted small', text: item.reasoning }) : null,
    stale ? el('p', { cls: 'notice', 'data-testid': 'label-stale', text: stale }) : null,
    el('p', { 'data-testid': 'label-choice', text: `your label: ${pending.label ?? '(p or f)'}` }),
    el('label', null, 'score (s): ', score),
    ' ',
    el('label', null, 'note (n): ', note),
  );
}
