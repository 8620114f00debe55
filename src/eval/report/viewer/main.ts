import { el } from './dom.js';
import { renderHeader } from './header.js';
import { labelApi } from './label-api.js';
import { type LabelView, labelView } from './label-view.js';
import { byKey, type ScoreRow, trials } from './page-data.js';
import { plotsView } from './plots-view.js';
import { scoresView } from './scores-view.js';
import { type TrialsState, type TrialsView, trialHash, trialsView } from './trials-view.js';

/**
 * The HTML report's viewer (bundled into its one inline script by bundle.mjs): the scores,
 * plots, and the trial list beside the selected trial or two trials side by side. The URL hash
 * holds the view and the selection (#trial=<suite>/<task>/<variant>/<n>, #compare=<trial>,<trial>),
 * so a link opens one trial. Keys: j/k (or the arrows in the list) move, / filters, c compares
 * with another variant, Esc ends a comparison. Every recorded text goes in through textContent
 * or an attribute value, never as HTML.
 */

type ViewName = 'scores' | 'plots' | 'trials' | 'label';

const state: TrialsState & { view: ViewName } = {
  view: 'scores',
  selected: -1,
  pinned: -1,
  missing: '',
};
const viewRoot = document.getElementById('view')!;
const rendered: Partial<Record<ViewName, HTMLElement>> = {};
let trialsShown: TrialsView | null = null;
let labelShown: LabelView | null = null;

/**
 * The views, in the nav's order (#<name> opens one): each draws itself into its root once, when
 * first shown. A new view is one entry here.
 */
const VIEWS: ReadonlyArray<{ name: ViewName; title: string; draw: (root: HTMLElement) => void }> = [
  { name: 'scores', title: 'Scores', draw: (root) => scoresView(root, showTrialsOf) },
  { name: 'plots', title: 'Plots', draw: plotsView },
  {
    name: 'trials',
    title: `Trials (${trials.length})`,
    draw: (root) => {
      trialsShown = trialsView(root, state, remember);
    },
  },
  // Only in the page `view --label` serves: the one that may reach its server.
  ...(labelApi === null
    ? []
    : [
        {
          name: 'label' as const,
          title: 'Label',
          draw: (root: HTMLElement) => {
            labelShown = labelView(root, labelApi!);
          },
        },
      ]),
];

function renderNav(): void {
  const nav = document.getElementById('nav')!;
  for (const view of VIEWS) {
    nav.appendChild(
      el('a', {
        href: `#${view.name}`,
        'data-view': view.name,
        'data-testid': `nav-${view.name}`,
        text: view.title,
      }),
    );
  }
  const keys =
    'keys: j/k next/previous trial \u00b7 / filter \u00b7 c compare variants \u00b7 Esc end comparison';
  nav.appendChild(el('span', { cls: 'muted keys', 'data-testid': 'nav-keys', text: keys }));
}

/** The state a hash asks for; a trial it names that this report lacks is kept to be said. */
function route(): void {
  const hash = location.hash.slice(1);
  const at = hash.indexOf('=');
  const name = at < 0 ? hash : hash.slice(0, at);
  const value = at < 0 ? '' : hash.slice(at + 1);
  state.missing = '';
  if (name === 'trial' || name === 'compare') {
    const keys = value.split(',');
    const found = keys.map((key) => byKey.get(key) ?? -1);
    if (found.includes(-1)) state.missing = keys[found.indexOf(-1)]!;
    state.view = 'trials';
    state.selected = found[found.length - 1]!;
    state.pinned = name === 'compare' && found.length === 2 && found[0]! >= 0 ? found[0]! : -1;
  } else {
    state.view = VIEWS.find((view) => view.name === name)?.name ?? 'scores';
    if (name !== 'trials') state.pinned = -1;
  }
  show();
}

/** The selection changed here: the hash follows without adding a history entry per keystroke. */
function remember(): void {
  const hash = state.view !== 'trials' || state.selected < 0 ? state.view : trialHash(state);
  history.replaceState(null, '', `#${hash}`);
}

function show(): void {
  for (const a of document.querySelectorAll('#nav a')) {
    a.className = a.getAttribute('data-view') === state.view ? 'current' : '';
  }
  document.body.setAttribute('data-view', state.view);
  // The labelling view lists its own keys.
  document.querySelector<HTMLElement>('#nav .keys')!.hidden = state.view === 'label';
  for (const view of VIEWS) {
    const root = rendered[view.name];
    if (root) root.hidden = view.name !== state.view;
  }
  if (!rendered[state.view]) {
    const root = el('div', { cls: `view-${state.view}`, 'data-testid': `view-${state.view}` });
    viewRoot.appendChild(root);
    rendered[state.view] = root;
    VIEWS.find((view) => view.name === state.view)!.draw(root);
  }
  if (state.view === 'trials' && trialsShown) {
    if (state.selected >= 0 && trialsShown.list.selected !== state.selected)
      trialsShown.list.select(state.selected);
    else {
      if (state.selected >= 0) remember();
      trialsShown.showDetail();
    }
  }
}

/** The trials view, opened with the list at `trials`. */
function openTrials(): TrialsView {
  location.hash = 'trials';
  route();
  return trialsShown!;
}

/** The trials view, filtered to a row of the scores, its first failing trial selected. */
function showTrialsOf(row: ScoreRow): void {
  const { list } = openTrials();
  list.filter(
    (['suite', 'task', 'variant'] as const)
      .map((field) => `${field}:${row[field].replace(/\s/g, '')}`)
      .join(' '),
  );
  const shown = list.positions();
  const failing = shown.filter((at) => trials[at]!.outcome !== 'passed');
  if (shown.length) list.select(failing.length ? failing[0]! : shown[0]!);
}

function onKey(event: KeyboardEvent): void {
  const target = event.target as HTMLElement | null;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (
    target &&
    (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA')
  )
    return;
  if (state.view === 'label' && labelShown?.onKey(event)) return;
  const key = event.key;
  if (key === '/' || key === 'j' || key === 'k') {
    event.preventDefault();
    const { list } = state.view === 'trials' && trialsShown ? trialsShown : openTrials();
    if (key === '/') list.focusFilter();
    else list.move(key === 'j' ? 1 : -1);
  } else if (key === 'c' && state.view === 'trials' && state.selected >= 0)
    trialsShown?.compareVariants();
  else if (key === 'Escape' && state.pinned >= 0) trialsShown?.endCompare();
}

document.addEventListener('keydown', onKey);
window.addEventListener('hashchange', route);
renderHeader(document.getElementById('header')!);
renderNav();
route();
// Times from navigation start, for the report's load-time figures (npm run bench).
document.body.setAttribute('data-rendered-ms', String(Math.round(performance.now())));
document.addEventListener('DOMContentLoaded', () => {
  document.body.setAttribute('data-details-ms', String(Math.round(performance.now())));
  document.body.setAttribute('data-ready', 'true');
  // A trial opened before the parser reached its details shows them now.
  if (
    state.view === 'trials' &&
    trialsShown &&
    viewRoot.querySelector('.detail [data-testid=loading]')
  ) {
    trialsShown.showDetail();
  }
});
