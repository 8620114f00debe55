/**
 * The viewer's trial list: grouped by suite, task and variant, filtered as one types, and
 * virtual (only the rows in sight exist), so 2,000 or 20,000 trials scroll and filter alike.
 */
export const VIEWER_LIST = String.raw`
var ROW_HEIGHT = 26;
var groupCounts = new Map();
trials.forEach(function (t) {
  var key = groupKey(t), counts = groupCounts.get(key) || { passed: 0, counted: 0, all: 0 };
  counts.all++;
  if (t.outcome === 'passed' || t.outcome === 'failed') counts.counted++;
  if (t.outcome === 'passed') counts.passed++;
  groupCounts.set(key, counts);
});
function groupKey(t) { return t.suite + '\u0000' + t.task + '\u0000' + t.variant; }
var haystacks = trials.map(function (t) {
  return [t.suite, t.task, t.variant, t.case ? 'case ' + t.case : '', 'trial ' + t.trial, t.outcome, t.message].join(' ').toLowerCase();
});

/**
 * Words match anywhere (suite, task, variant, outcome, message); field:value matches that
 * field exactly, spaces left out: suite:, task:, variant:, outcome:, trial:.
 */
function matcher(query) {
  var words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return function (t, i) {
    return words.every(function (word) {
      var at = word.indexOf(':'), field = word.slice(0, at);
      if (at > 0 && ['suite', 'task', 'variant', 'outcome', 'trial'].indexOf(field) >= 0) {
        return String(t[field]).toLowerCase().replace(/\s/g, '') === word.slice(at + 1);
      }
      return haystacks[i].indexOf(word) >= 0;
    });
  };
}

function trialRowNode(list, row) {
  if (row.group) {
    var t = row.group, c = groupCounts.get(groupKey(t));
    return el('div', { cls: 'row group' }, el('span', { cls: 'variant ' + variantClass(t.variant), text: t.variant }),
      ' ' + t.task + ' \u00b7 ' + t.suite, el('span', { cls: 'muted', text: ' ' + c.passed + '/' + c.counted + ' passed' }));
  }
  var trial = trials[row.i];
  return el('div', { cls: 'row trial' + (row.i === list.selected ? ' selected' : '') + (row.i === list.pinned ? ' pinned' : ''), role: 'option',
    'aria-selected': row.i === list.selected ? 'true' : 'false', 'data-i': row.i, 'data-testid': 'trial-row',
    'data-trial': label(trial), title: label(trial), onclick: function () { list.select(row.i); } },
    el('span', { cls: 'n', text: (trial.case ? trial.case + ' ' : '') + '#' + trial.trial }), badge(trial.outcome), el('span', { cls: 'msg', text: trial.message }));
}

/** The list's rows: a group header where suite, task or variant changes, then its trials. */
function listRows(query) {
  var match = matcher(query), rows = [], last = null;
  trials.forEach(function (t, i) {
    if (!match(t, i)) return;
    if (groupKey(t) !== last) { last = groupKey(t); rows.push({ group: t }); }
    rows.push({ i: i });
  });
  return rows;
}

function createTrialList(onSelect) {
  var list = { query: '', rows: [], selected: -1, pinned: -1 };
  var input = el('input', { type: 'search', 'data-testid': 'trial-filter', 'aria-label': 'Filter trials',
    placeholder: 'filter (/): words, or task:T1 variant:baseline outcome:failed' });
  var count = el('div', { cls: 'muted count', 'data-testid': 'trial-count' });
  var inner = el('div', { cls: 'list-inner' });
  var scroller = el('div', { cls: 'list', role: 'listbox', tabindex: '0', 'aria-label': 'Trials', 'data-testid': 'trial-list' }, inner);
  list.node = el('aside', { cls: 'master' }, input, count, scroller);
  var pending = false;
  /** Only the rows in sight (and a few around them) exist. */
  function draw() {
    pending = false;
    var first = Math.max(0, Math.floor(scroller.scrollTop / ROW_HEIGHT) - 10);
    var last = Math.min(list.rows.length, first + Math.ceil((scroller.clientHeight || 800) / ROW_HEIGHT) + 20);
    clear(inner);
    for (var at = first; at < last; at++) {
      var node = trialRowNode(list, list.rows[at]);
      node.style.top = at * ROW_HEIGHT + 'px';
      inner.appendChild(node);
    }
  }
  function refilter() {
    list.rows = listRows(list.query);
    count.textContent = list.positions().length + ' of ' + trials.length + ' trials';
    inner.style.height = list.rows.length * ROW_HEIGHT + 'px';
    draw();
  }
  scroller.addEventListener('scroll', function () { if (!pending) { pending = true; requestAnimationFrame(draw); } });
  input.addEventListener('input', function () { list.query = input.value; refilter(); });
  input.addEventListener('keydown', function (event) {
    if (event.key !== 'Enter' && event.key !== 'Escape') return;
    event.preventDefault();
    if (event.key === 'Enter' && !list.visible(list.selected)) list.move(1);
    scroller.focus();
  });
  scroller.addEventListener('keydown', function (event) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') { event.preventDefault(); list.move(event.key === 'ArrowDown' ? 1 : -1); }
  });
  listMethods(list, scroller, draw, onSelect);
  list.filter = function (query) { input.value = query; list.query = query; refilter(); };
  list.focusFilter = function () { input.focus(); input.select(); };
  refilter();
  return list;
}

function listMethods(list, scroller, draw, onSelect) {
  list.positions = function () { return list.rows.filter(function (r) { return !r.group; }).map(function (r) { return r.i; }); };
  list.visible = function (i) { return list.rows.some(function (r) { return r.i === i; }); };
  /** Select a trial, scrolled into sight. */
  list.select = function (i) {
    list.selected = i;
    var at = -1;
    for (var r = 0; r < list.rows.length; r++) if (list.rows[r].i === i) at = r;
    if (at >= 0) {
      var top = at * ROW_HEIGHT, height = scroller.clientHeight || 800;
      if (top < scroller.scrollTop + ROW_HEIGHT) scroller.scrollTop = Math.max(0, top - ROW_HEIGHT);
      else if (top + ROW_HEIGHT > scroller.scrollTop + height) scroller.scrollTop = top + 2 * ROW_HEIGHT - height;
    }
    draw();
    onSelect(i);
  };
  /** The next (1) or previous (-1) trial that the filter shows. */
  list.move = function (step) {
    var shown = list.positions();
    if (!shown.length) return;
    var at = shown.indexOf(list.selected);
    var next = at < 0 ? (step > 0 ? 0 : shown.length - 1) : Math.min(shown.length - 1, Math.max(0, at + step));
    list.select(shown[next]);
  };
  list.focus = function () { scroller.focus(); };
  list.redraw = draw;
}
`;
