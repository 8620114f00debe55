import { el } from './dom.js';
import { trials } from './page-data.js';
import { drawRows, listRows, ROW_HEIGHT, type Row } from './trial-rows.js';

/**
 * The trial list: grouped by suite, task and variant, filtered as one types, and virtual (only
 * the rows in sight exist), so 2,000 or 20,000 trials scroll and filter alike.
 */
export interface TrialList {
  node: HTMLElement;
  /** The selected and the pinned (compared) trial, by position; -1 for none. */
  selected: number;
  pinned: number;
  /** Select a trial, scrolled into sight. */
  select(at: number): void;
  /** The next (1) or previous (-1) trial that the filter shows. */
  move(step: number): void;
  /** The positions of the trials the filter shows, in list order. */
  positions(): number[];
  visible(at: number): boolean;
  filter(query: string): void;
  focusFilter(): void;
  focus(): void;
  redraw(): void;
}

/** Scroll so that row `at` is in sight, a row's margin kept. */
function scrollTo(scroller: HTMLElement, at: number): void {
  const top = at * ROW_HEIGHT;
  const height = scroller.clientHeight || 800;
  if (top < scroller.scrollTop + ROW_HEIGHT) scroller.scrollTop = Math.max(0, top - ROW_HEIGHT);
  else if (top + ROW_HEIGHT > scroller.scrollTop + height) {
    scroller.scrollTop = top + 2 * ROW_HEIGHT - height;
  }
}

/** The list's search box: Enter or Esc hands the keys to the list (Enter selects the first shown). */
function filterInput(
  list: TrialList,
  scroller: HTMLElement,
  onQuery: (query: string) => void,
): HTMLInputElement {
  const input = el('input', {
    type: 'search',
    'data-testid': 'trial-filter',
    'aria-label': 'Filter trials',
    placeholder: 'filter (/): words, or task:T1 variant:baseline outcome:failed',
  });
  input.addEventListener('input', () => onQuery(input.value));
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' && event.key !== 'Escape') return;
    event.preventDefault();
    if (event.key === 'Enter' && !list.visible(list.selected)) list.move(1);
    scroller.focus();
  });
  return input;
}

/** The trial list; `onSelect` runs with the position of each trial selected. */
export function createTrialList(onSelect: (at: number) => void): TrialList {
  let rows: Row[] = [];
  let pending = false;
  const count = el('div', { cls: 'muted count', 'data-testid': 'trial-count' });
  const inner = el('div', { cls: 'list-inner' });
  const scroller = el(
    'div',
    {
      cls: 'list',
      role: 'listbox',
      tabindex: '0',
      'aria-label': 'Trials',
      'data-testid': 'trial-list',
    },
    inner,
  );
  const draw = () => {
    pending = false;
    drawRows(list, rows, scroller, inner);
  };
  const refilter = (query: string) => {
    rows = listRows(query);
    count.textContent = `${list.positions().length} of ${trials.length} trials`;
    inner.style.height = `${rows.length * ROW_HEIGHT}px`;
    draw();
  };
  const positions = () => rows.flatMap((row) => ('at' in row ? [row.at] : []));
  const list: TrialList = {
    node: el('aside', { cls: 'master' }),
    selected: -1,
    pinned: -1,
    positions,
    visible: (at) => rows.some((row) => 'at' in row && row.at === at),
    select: (at) => {
      list.selected = at;
      const shownAt = rows.findIndex((row) => 'at' in row && row.at === at);
      if (shownAt >= 0) scrollTo(scroller, shownAt);
      draw();
      onSelect(at);
    },
    move: (step) => {
      const shown = positions();
      if (!shown.length) return;
      const at = shown.indexOf(list.selected);
      const next =
        at < 0
          ? step > 0
            ? 0
            : shown.length - 1
          : Math.min(shown.length - 1, Math.max(0, at + step));
      list.select(shown[next]!);
    },
    filter: (query) => {
      input.value = query;
      refilter(query);
    },
    focusFilter: () => {
      input.focus();
      input.select();
    },
    focus: () => scroller.focus(),
    redraw: draw,
  };
  const input = filterInput(list, scroller, refilter);
  list.node.append(input, count, scroller);
  scroller.addEventListener('scroll', () => {
    if (!pending) {
      pending = true;
      requestAnimationFrame(draw);
    }
  });
  scroller.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    list.move(event.key === 'ArrowDown' ? 1 : -1);
  });
  refilter('');
  return list;
}
