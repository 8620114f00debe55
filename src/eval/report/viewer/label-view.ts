import { clear, el } from './dom.js';
import { type LabelState, loadLabels, type Pending, pendingOf, saveLabel } from './label-api.js';
import { calibrationTable, itemList, itemName, itemPanel } from './label-panels.js';

/**
 * The labelling view (`view --label` only): one judged check of one trial at a time, labelled
 * from the keyboard (j/k move, p/f pass or fail and save, s the score, n the note, Enter saves
 * the field, Esc leaves it), beside the calibration the labels give, recomputed on each save.
 */
export interface LabelView {
  /** A key pressed outside the view's inputs: true when the view used it. */
  onKey(event: KeyboardEvent): boolean;
}

export const LABEL_KEYS =
  'keys: j/k next/previous \u00b7 p pass \u00b7 f fail \u00b7 s score \u00b7 n note \u00b7 Enter save \u00b7 Esc back';

const RUN_SECTION_NOTE =
  "Recomputed on each save; the report's own judges section shows the run's labels until the next npm run eval.";

const NOTHING_TO_LABEL =
  'No judged trial here has a human-labels file: give its judge humanLabels (docs/judges.md).';

/** Enter in `input` commits its value (`commit` gives a problem to show, or null) and saves; Esc leaves it. */
function bindField(
  input: HTMLInputElement,
  status: HTMLElement,
  commit: (value: string) => string | null,
  save: () => void,
): void {
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') input.blur();
    if (event.key !== 'Enter') return;
    event.preventDefault();
    const problem = commit(input.value.trim());
    if (problem) status.textContent = problem;
    else {
      input.blur();
      save();
    }
  });
}

function commitScore(pending: Pending, value: string): string | null {
  const number = Number(value);
  if (value === '') delete pending.score;
  else if (!Number.isFinite(number) || number < 0 || number > 1)
    return `score ${value}: give a number from 0 to 1`;
  else pending.score = number;
  return null;
}

function commitNote(pending: Pending, value: string): string | null {
  if (value === '') delete pending.note;
  else pending.note = value;
  return null;
}

export function labelView(root: HTMLElement, api: string): LabelView {
  let state: LabelState = { items: [], checks: [] };
  let at = 0;
  let pending: Pending = {};
  const status = el('p', { cls: 'muted', 'data-testid': 'label-status', 'aria-live': 'polite' });
  const score = el('input', { 'data-testid': 'label-score', inputmode: 'decimal', size: 6 });
  const note = el('input', { 'data-testid': 'label-note', size: 60, maxlength: 2000 });
  const body = el('div', null);
  root.append(
    el('h2', { text: 'Label judged trials' }),
    el('p', { cls: 'muted', text: LABEL_KEYS }),
    status,
    body,
  );

  function draw(): void {
    clear(body).append(
      el('h3', { text: 'Calibration against these labels' }),
      el('p', { cls: 'muted small', text: RUN_SECTION_NOTE }),
      calibrationTable(state),
    );
    if (!state.items[at]) {
      body.append(el('p', { text: NOTHING_TO_LABEL }));
      return;
    }
    score.value = pending.score === undefined ? '' : String(pending.score);
    note.value = pending.note ?? '';
    body.append(
      el(
        'div',
        { cls: 'label-grid' },
        itemList(state, at),
        itemPanel(state, at, pending, [score, note]),
      ),
    );
  }

  function select(index: number): void {
    at = Math.max(0, Math.min(state.items.length - 1, index));
    pending = state.items[at] ? pendingOf(state.items[at]!) : {};
    draw();
  }

  function save(): void {
    const item = state.items[at];
    if (!item) return;
    if (!pending.label) {
      status.textContent = 'press p or f to save this label';
      draw();
      return;
    }
    const name = itemName(item);
    saveLabel(api, item, pending).then(
      (next) => {
        state = next;
        status.textContent = `saved ${name}: ${pending.label}`;
        draw();
      },
      (error: Error) => {
        status.textContent = `not saved: ${error.message}`;
      },
    );
  }

  bindField(score, status, (value) => commitScore(pending, value), save);
  bindField(note, status, (value) => commitNote(pending, value), save);

  loadLabels(api).then(
    (loaded) => {
      state = loaded;
      const first = state.items.findIndex((item) => !item.human || item.human.standing === 'stale');
      select(Math.max(first, 0));
      root.setAttribute('data-loaded', 'true');
    },
    (error: Error) => {
      status.textContent = `labels could not be loaded: ${error.message}`;
    },
  );

  return {
    onKey(event) {
      const key = event.key;
      if (key === 'j' || key === 'ArrowDown' || key === 'k' || key === 'ArrowUp')
        select(at + (key === 'j' || key === 'ArrowDown' ? 1 : -1));
      else if (key === 'p' || key === 'f') {
        pending.label = key === 'p' ? 'pass' : 'fail';
        save();
      } else if (key === 's' || key === 'n') (key === 's' ? score : note).focus();
      else return false;
      event.preventDefault();
      return true;
    },
  };
}
