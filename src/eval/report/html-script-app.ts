/**
 * The viewer's views and navigation: scores, plots, the trial list beside the selected trial,
 * and two trials side by side. The URL hash holds the view and the selection (#trial=<suite>/
 * <task>/<variant>/<n>, #compare=<trial>,<trial>), so a link opens one trial. Keys: j/k (or the
 * arrows in the list) move, / filters, c compares with another variant, Esc ends a comparison.
 */
export const VIEWER_APP = String.raw`
var state = { view: 'scores', selected: -1, pinned: -1, missing: '' };
var viewRoot = document.getElementById('view');
var trialList = null;
var rendered = {};

function renderNav() {
  var nav = document.getElementById('nav');
  [['scores', 'Scores'], ['plots', 'Plots'], ['trials', 'Trials (' + trials.length + ')']].forEach(function (item) {
    nav.appendChild(el('a', { href: '#' + item[0], 'data-view': item[0], 'data-testid': 'nav-' + item[0], text: item[1] }));
  });
  nav.appendChild(el('span', { cls: 'muted keys', text: 'keys: j/k next/previous trial \u00b7 / filter \u00b7 c compare variants \u00b7 Esc end comparison' }));
}

/** The state a hash asks for; a trial it names that this report lacks is kept to be said. */
function route() {
  var hash = location.hash.slice(1);
  var at = hash.indexOf('=');
  var name = at < 0 ? hash : hash.slice(0, at), value = at < 0 ? '' : hash.slice(at + 1);
  state.missing = '';
  if (name === 'trial' || name === 'compare') {
    var keys = value.split(',');
    var found = keys.map(function (key) { return byKey.has(key) ? byKey.get(key) : -1; });
    if (found.indexOf(-1) >= 0) state.missing = keys[found.indexOf(-1)];
    state.view = 'trials';
    state.selected = found[found.length - 1];
    state.pinned = name === 'compare' && found.length === 2 && found[0] >= 0 ? found[0] : -1;
  } else {
    state.view = name === 'plots' || name === 'trials' ? name : 'scores';
    if (name !== 'trials') state.pinned = -1;
  }
  show();
}
function hashOf() {
  if (state.view !== 'trials' || state.selected < 0) return state.view;
  var key = keyOf(trials[state.selected]);
  return state.pinned >= 0 ? 'compare=' + keyOf(trials[state.pinned]) + ',' + key : 'trial=' + key;
}
/** The selection changed here: the hash follows without adding a history entry per keystroke. */
function remember() { history.replaceState(null, '', '#' + hashOf()); }

function show() {
  Array.prototype.forEach.call(document.querySelectorAll('#nav a'), function (a) {
    a.className = a.getAttribute('data-view') === state.view ? 'current' : '';
  });
  document.body.setAttribute('data-view', state.view);
  ['scores', 'plots', 'trials'].forEach(function (name) {
    if (rendered[name]) rendered[name].hidden = name !== state.view;
  });
  if (!rendered[state.view]) {
    var root = el('div', { cls: 'view-' + state.view, 'data-testid': 'view-' + state.view });
    viewRoot.appendChild(root);
    rendered[state.view] = root;
    if (state.view === 'scores') scoresView(root);
    if (state.view === 'plots') plotsView(root);
    if (state.view === 'trials') trialsView(root);
  }
  if (state.view === 'trials') {
    if (state.selected >= 0 && trialList.selected !== state.selected) trialList.select(state.selected);
    else {
      if (state.selected >= 0) remember();
      showDetail();
    }
  }
}

var detailRoot = null;
function trialsView(root) {
  trialList = createTrialList(function (i) { state.selected = i; remember(); showDetail(); });
  detailRoot = el('section', { cls: 'detail', 'aria-live': 'polite' });
  root.appendChild(el('div', { cls: 'md' }, trialList.node, detailRoot));
}
function button(action, text, onclick) { return el('button', { 'data-action': action, text: text, onclick: onclick }); }

function showDetail() {
  if (trialList.pinned !== state.pinned) { trialList.pinned = state.pinned; trialList.redraw(); }
  clear(detailRoot);
  detailRoot.className = state.pinned >= 0 && state.selected >= 0 ? 'detail compare' : 'detail';
  if (state.missing) detailRoot.appendChild(el('p', { cls: 'notice', 'data-testid': 'missing-trial', text: 'This report has no trial ' + decodeKey(state.missing) + '.' }));
  if (state.selected < 0) {
    detailRoot.appendChild(el('p', { cls: 'muted', text: 'Select a trial: click it, or j/k; / filters (outcome:failed).' }));
    return;
  }
  if (state.pinned >= 0) {
    detailRoot.setAttribute('data-testid', 'side-by-side');
    var left = trialPane(state.pinned, [button('end-compare', 'end comparison (Esc)', endCompare)]);
    var right = trialPane(state.selected, [el('span', { cls: 'muted', text: 'j/k change this side' })]);
    markDifferences(left, right);
    detailRoot.appendChild(left);
    detailRoot.appendChild(right);
    return;
  }
  detailRoot.removeAttribute('data-testid');
  detailRoot.appendChild(trialPane(state.selected, [
    sameTrialOf(state.selected).length > 1 ? button('compare-variants', 'compare variants (c)', compareVariants) : null,
    button('pin', 'compare with another trial', function () { state.pinned = state.selected; remember(); showDetail(); })
  ]));
}
function decodeKey(key) {
  try { return key.split('/').map(decodeURIComponent).join(' '); } catch (error) { return key; }
}
/** The trials with this one's suite, task, case and number: one per variant. */
function sameTrialOf(at) {
  var t = trials[at], same = [];
  trials.forEach(function (x, i) { if (x.suite === t.suite && x.task === t.task && x.case === t.case && x.trial === t.trial) same.push(i); });
  return same;
}
/** Side by side: the same trial number in the baseline (left) and in this or the next variant (right). */
function compareVariants() {
  var same = sameTrialOf(state.selected);
  if (same.length < 2) return;
  var reference = same.filter(function (i) { return trials[i].variant === 'baseline'; })[0];
  if (reference === undefined) reference = same[0];
  var right = state.selected === reference ? same.filter(function (i) { return i !== reference; })[0] : state.selected;
  state.pinned = reference;
  trialList.select(right);
}
function endCompare() { state.pinned = -1; remember(); showDetail(); }

/** The trials view, filtered to a row of the scores, its first failing trial selected. */
function showTrialsOf(row) {
  location.hash = 'trials';
  route();
  trialList.filter(['suite', 'task', 'variant'].map(function (field) { return field + ':' + row[field].replace(/\s/g, ''); }).join(' '));
  var shown = trialList.positions();
  var failing = shown.filter(function (i) { return trials[i].outcome !== 'passed'; });
  if (shown.length) trialList.select(failing.length ? failing[0] : shown[0]);
}

document.addEventListener('keydown', function (event) {
  var target = event.target;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (target && (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA')) return;
  var key = event.key;
  if (key === '/' || key === 'j' || key === 'k') {
    event.preventDefault();
    if (state.view !== 'trials') { location.hash = 'trials'; route(); }
    if (key === '/') trialList.focusFilter();
    else trialList.move(key === 'j' ? 1 : -1);
  } else if (key === 'c' && state.view === 'trials' && state.selected >= 0) compareVariants();
  else if (key === 'Escape' && state.pinned >= 0) endCompare();
});
window.addEventListener('hashchange', route);

renderHeader(document.getElementById('header'));
renderNav();
route();
// Times from navigation start, for the report's load-time figures (npm run bench).
document.body.setAttribute('data-rendered-ms', String(Math.round(performance.now())));
document.addEventListener('DOMContentLoaded', function () {
  document.body.setAttribute('data-details-ms', String(Math.round(performance.now())));
  document.body.setAttribute('data-ready', 'true');
  // A trial opened before the parser reached its details shows them now.
  if (state.view === 'trials' && detailRoot && detailRoot.querySelector('[data-testid=loading]')) showDetail();
});
`;
