import { clear, el } from './dom.js';
import { keyOf, trials } from './page-data.js';
import { createTrialList, type TrialList } from './trial-list.js';
import { markDifferences, trialPane } from './trial-pane.js';

/**
 * The trials view's state: the selected trial, the pinned one it is compared with (-1 for
 * none), and a trial a link named that this report lacks.
 */
export interface TrialsState {
  selected: number;
  pinned: number;
  missing: string;
}

/** The trial list beside the selected trial, or two trials side by side. */
export interface TrialsView {
  list: TrialList;
  /** Show the state's trials (the list keeps its own selection). */
  showDetail(): void;
  /** Side by side: the same trial number in the baseline (left) and in this or the next variant (right). */
  compareVariants(): void;
  endCompare(): void;
}

/** The trials with this one's suite, task, case and number: one per variant. */
function sameTrialOf(at: number): number[] {
  const t = trials[at]!;
  const same: number[] = [];
  trials.forEach((x, i) => {
    if (x.suite === t.suite && x.task === t.task && x.case === t.case && x.trial === t.trial)
      same.push(i);
  });
  return same;
}

function decodeKey(key: string): string {
  try {
    return key.split('/').map(decodeURIComponent).join(' ');
  } catch {
    return key;
  }
}

function button(action: string, text: string, onclick: () => void): HTMLButtonElement {
  return el('button', { 'data-action': action, text, onclick });
}

/** The trials view in `root`; `remember` writes the state to the URL hash. */
export function trialsView(
  root: HTMLElement,
  state: TrialsState,
  remember: () => void,
): TrialsView {
  const detail = el('section', { cls: 'detail', 'aria-live': 'polite' });
  const list = createTrialList((at) => {
    state.selected = at;
    remember();
    view.showDetail();
  });
  root.appendChild(el('div', { cls: 'md' }, list.node, detail));
  const view: TrialsView = {
    list,
    showDetail: () => showDetail(view, detail, state, remember),
    compareVariants: () => {
      const same = sameTrialOf(state.selected);
      if (same.length < 2) return;
      const reference = same.find((at) => trials[at]!.variant === 'baseline') ?? same[0]!;
      const right =
        state.selected === reference ? same.find((at) => at !== reference)! : state.selected;
      state.pinned = reference;
      list.select(right);
    },
    endCompare: () => {
      state.pinned = -1;
      remember();
      view.showDetail();
    },
  };
  return view;
}

function showDetail(
  view: TrialsView,
  detail: HTMLElement,
  state: TrialsState,
  remember: () => void,
): void {
  const { list } = view;
  if (list.pinned !== state.pinned) {
    list.pinned = state.pinned;
    list.redraw();
  }
  clear(detail);
  detail.className = state.pinned >= 0 && state.selected >= 0 ? 'detail compare' : 'detail';
  if (state.missing) {
    detail.appendChild(
      el('p', {
        cls: 'notice',
        'data-testid': 'missing-trial',
        text: `This report has no trial ${decodeKey(state.missing)}.`,
      }),
    );
  }
  if (state.selected < 0) {
    detail.appendChild(
      el('p', {
        cls: 'muted',
        text: 'Select a trial: click it, or j/k; / filters (outcome:failed).',
      }),
    );
    return;
  }
  if (state.pinned >= 0) {
    detail.setAttribute('data-testid', 'side-by-side');
    const left = trialPane(state.pinned, [
      button('end-compare', 'end comparison (Esc)', view.endCompare),
    ]);
    const right = trialPane(state.selected, [
      el('span', { cls: 'muted', text: 'j/k change this side' }),
    ]);
    markDifferences(left, right);
    detail.append(left, right);
    return;
  }
  detail.removeAttribute('data-testid');
  const pin = () => {
    state.pinned = state.selected;
    remember();
    view.showDetail();
  };
  detail.appendChild(
    trialPane(state.selected, [
      sameTrialOf(state.selected).length > 1
        ? button('compare-variants', 'compare variants (c)', view.compareVariants)
        : null,
      button('pin', 'compare with another trial', pin),
    ]),
  );
}

/** A trial's place in the URL hash: #trial=<key>, or #compare=<pinned>,<selected>. */
export function trialHash(state: TrialsState): string {
  const key = keyOf(trials[state.selected]!);
  return state.pinned >= 0 ? `compare=${keyOf(trials[state.pinned]!)},${key}` : `trial=${key}`;
}
