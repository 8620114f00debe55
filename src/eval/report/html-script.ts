/**
 * The HTML report's viewer, inlined as plain browser JavaScript (no build step, no network).
 * It parses the embedded data once, renders the scores, and renders a trial list and its
 * transcripts only when asked. Every recorded text goes in through textContent, never as HTML.
 */
export const HTML_SCRIPT = String.raw`
(function () {
  'use strict';
  var model = JSON.parse(document.getElementById('report-model').textContent);
  var trials = model.trials;
  // The trials' details come after this script in the file: parsed once the page has loaded.
  var details = null, texts = [];
  var PAGE = 200;
  var state = { suite: '', task: '', variant: '', outcome: '', shown: PAGE };

  function s(value) { return typeof value === 'number' ? texts[value] : value; }
  function el(tag, attrs) {
    var node = document.createElement(tag);
    for (var key in attrs || {}) {
      if (key === 'text') node.textContent = attrs[key];
      else if (key === 'cls') node.className = attrs[key];
      else if (key === 'onclick') node.addEventListener('click', attrs[key]);
      else node.setAttribute(key, attrs[key]);
    }
    for (var i = 2; i < arguments.length; i++) {
      var child = arguments[i];
      if (child === null || child === undefined || child === false) continue;
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    }
    return node;
  }
  function rate(value) { return value === null || value === undefined ? '\u2014' : value.toFixed(2); }
  function amount(value) { return value === null || value === undefined ? '\u2014' : Math.round(value).toLocaleString('en-US'); }
  function mean(value) { return value === null || value === undefined ? '\u2014' : value.toFixed(1); }
  function delta(value) {
    if (value === null || value === undefined) return '\u2014';
    var text = value.toFixed(2);
    return Number(text) === 0 ? '0.00' : (value > 0 ? '+' + text : '\u2212' + text.slice(1));
  }
  function label(t) { return t.task + ' ' + t.variant + ' trial ' + t.trial; }
  function badge(outcome) { return el('span', { cls: 'badge o-' + outcome, text: outcome }); }
  function table(head, rows, numeric) {
    var thead = el('tr', null);
    head.forEach(function (h) { thead.appendChild(el('th', { text: h })); });
    var body = el('tbody', null);
    rows.forEach(function (row) {
      var tr = el('tr', null);
      row.forEach(function (cell, i) {
        var td = el('td', numeric && numeric.indexOf(i) >= 0 ? { cls: 'num' } : null);
        if (typeof cell === 'string') td.textContent = cell; else td.appendChild(cell);
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    return el('table', null, el('thead', null, thead), body);
  }
  function unique(values) { return values.filter(function (v, i) { return values.indexOf(v) === i; }); }
  function rowMatches(row) {
    return (!state.suite || row.suite === state.suite) && (!state.task || row.task === state.task) &&
      (!state.variant || row.variant === state.variant);
  }

  function renderHeader() {
    var h = model.header;
    var root = document.getElementById('header');
    root.appendChild(el('h1', { text: 'Eval report' }));
    root.appendChild(el('div', { 'data-testid': 'provenance' },
      el('strong', { text: 'Fixtures: ' + h.source.label }), ' (' + h.source.note + ')'));
    var origins = h.origins;
    if (origins.mixed) {
      var from = el('ul', { cls: 'muted' });
      origins.lines.forEach(function (line) { from.appendChild(el('li', { text: line })); });
      root.appendChild(el('div', { cls: 'muted', text: 'Recorded from (mixed):' }));
      root.appendChild(from);
    } else if (origins.origins.length) {
      root.appendChild(el('div', { cls: 'muted', text: 'Recorded from: ' + origins.origins[0] }));
    }
    root.appendChild(el('div', { cls: 'muted' }, 'Model: ' + (h.models.join(', ') || '\u2014') +
      ' \u00b7 Date: ' + h.generatedAt + ' \u00b7 Trials: ' + h.trials + ' per task and variant \u00b7 Suite: ' +
      (h.suites.join(', ') || '\u2014')));
    var gate = el('div', { 'data-testid': 'gate', cls: model.gate.passed ? 'gate-pass' : 'gate-fail',
      text: model.gate.passed ? 'Gate: passed' : 'Gate: FAILED' });
    root.appendChild(gate);
    if (model.gate.reasons.length) {
      var list = el('ul', null);
      model.gate.reasons.forEach(function (r) { list.appendChild(el('li', { text: r })); });
      root.appendChild(list);
    }
    if (model.gate.warnings && model.gate.warnings.length) {
      root.appendChild(el('div', { cls: 'muted', text: 'Warnings (noise at this n, not failing):' }));
      var warnings = el('ul', null);
      model.gate.warnings.forEach(function (w) { warnings.appendChild(el('li', { text: w })); });
      root.appendChild(warnings);
    }
  }

  function renderFilters() {
    var root = document.getElementById('filters');
    function select(name, values) {
      var node = el('select', { 'data-filter': name }, el('option', { value: '', text: 'all' }));
      values.forEach(function (v) { node.appendChild(el('option', { value: v, text: v })); });
      node.addEventListener('change', function () { state[name] = node.value; state.shown = PAGE; render(); });
      root.appendChild(el('label', null, name, node));
    }
    var rows = model.scores.rows;
    select('suite', unique(rows.map(function (r) { return r.suite; })));
    select('task', unique(rows.map(function (r) { return r.task; })));
    select('variant', unique(rows.map(function (r) { return r.variant; })));
    select('outcome', ['passed', 'failed', 'stale', 'missing', 'errored']);
  }

  function renderScores() {
    var root = document.getElementById('scores');
    root.textContent = '';
    var k = model.scores.k;
    var rows = model.scores.rows.filter(rowMatches);
    var variants = unique(rows.map(function (r) { return r.variant; }));
    var tasks = unique(rows.map(function (r) { return r.suite + '\u0000' + r.task; }));
    var head = ['Suite', 'Task', 'Title'];
    variants.forEach(function (v) { head.push(v + ' c/n', v + ' pass@1', v + ' pass@' + k, v + ' pass^' + k); });
    var against = model.scores.deltaAgainst;
    var hasDelta = rows.some(function (r) { return r.delta; });
    if (hasDelta) head.push('\u0394 pass@1' + (against ? ' vs ' + against : ''), '\u0394 pass^k');
    var numeric = [];
    for (var i = 3; i < head.length; i++) numeric.push(i);
    var body = tasks.map(function (key) {
      var parts = key.split('\u0000');
      var mine = rows.filter(function (r) { return r.suite === parts[0] && r.task === parts[1]; });
      var cells = [parts[0], parts[1], mine[0].title];
      variants.forEach(function (v) {
        var r = mine.filter(function (x) { return x.variant === v; })[0];
        if (!r) { cells.push('', '', '', ''); return; }
        var bar = el('span', null, el('span', { cls: 'bar', style: 'width:' + Math.round((r.passHatKCell.value || 0) * 40) + 'px' }), ' ' + r.withIntervals.passHatK);
        cells.push(r.counted, r.withIntervals.passAt1, r.withIntervals.passAtK, bar);
      });
      if (hasDelta) {
        var d = mine.filter(function (x) { return x.delta; })[0];
        cells.push(d ? d.withIntervals.delta : '', d ? delta(d.delta.passHatK) : '');
      }
      return cells;
    });
    root.appendChild(el('h2', { text: 'Scores' }));
    var scores = table(head, body, numeric);
    scores.setAttribute('data-testid', 'scores');
    root.appendChild(scores);
    root.appendChild(el('p', { cls: 'muted', text: 'Rates with their 95% interval [lower, upper] (Wilson; \u0394: Newcombe).' +
      (model.scores.undecided ? ' ' + model.notDistinguishable : '') }));
    var costs = rows.map(function (r) {
      return [r.task, r.variant, amount(r.tokens.input), amount(r.tokens.output), amount(r.tokens.cacheRead),
        amount(r.tokens.cacheWrite), mean(r.steps), mean(r.toolCalls), mean(r.toolErrors), mean(r.unconfirmedWrites),
        amount(r.modelLatencyMs.p50), amount(r.modelLatencyMs.p95), amount(r.toolMs)];
    });
    root.appendChild(el('h2', { text: 'Tokens and timing' }));
    root.appendChild(el('p', { cls: 'muted', text: 'Means per counted trial; model latency as recorded; tool time is virtual when replayed.' +
      (model.header.estimatedTokens ? ' Simulator token counts are estimates.' : '') }));
    root.appendChild(table(['Task', 'Variant', 'Input', 'Output', 'Cache read', 'Cache write', 'Steps', 'Tool calls',
      'Tool errors', 'Unconfirmed writes', 'Model p50 ms', 'Model p95 ms', 'Tool ms'], costs, [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]));
    if (model.comparison) {
      root.appendChild(el('h2', { text: 'Compared with the reference (' + model.comparison.referenceGeneratedAt + ')' }));
      root.appendChild(table(['Task', 'Variant', 'pass@1', 'k', 'pass^k', 'Change'],
        model.comparison.entries.filter(rowMatches).map(function (e) {
          return [e.task, e.variant, rate(e.passAt1.before) + ' \u2192 ' + rate(e.passAt1.after),
            e.passHatK.k === null ? '' : String(e.passHatK.k), rate(e.passHatK.before) + ' \u2192 ' + rate(e.passHatK.after), e.flag];
        })));
    }
    if (model.stale.commands.length) {
      root.appendChild(el('h2', { text: 'Re-record the stale or missing fixtures' }));
      root.appendChild(el('pre', { text: model.stale.commands.join('\n') }));
    }
  }

  function renderTrials() {
    var root = document.getElementById('trials');
    root.textContent = '';
    var matching = trials.filter(function (t) { return rowMatches(t) && (!state.outcome || t.outcome === state.outcome); });
    root.appendChild(el('h2', { text: 'Trials (' + matching.length + ' of ' + trials.length + ')' }));
    var rows = matching.slice(0, state.shown).map(function (t) {
      var actions = el('span', null,
        el('button', { 'data-action': 'transcript', onclick: function () { openTranscript(t); }, text: 'transcript' }), ' ',
        el('button', { 'data-action': 'side-by-side', onclick: function () { openSideBySide(t); }, text: 'side by side' }));
      return [t.suite, t.task, t.variant, String(t.trial), badge(t.outcome), t.message, actions];
    });
    var list = table(['Suite', 'Task', 'Variant', 'Trial', 'Outcome', 'Message', ''], rows, [3]);
    list.className = 'trials';
    list.setAttribute('data-testid', 'trial-list');
    root.appendChild(list);
    if (matching.length > state.shown) {
      root.appendChild(el('button', { text: 'show ' + Math.min(PAGE, matching.length - state.shown) + ' more', onclick: function () {
        state.shown += PAGE; renderTrials(); } }));
    }
  }

  function toolCall(call) {
    var decision = call.decision ? el('span', { cls: 'badge d-' + call.decision, 'data-testid': 'decision', text: call.decision }) : el('span', { cls: 'muted', text: 'decision not traced' });
    return el('div', { cls: 'tool', 'data-testid': 'tool-call' },
      el('div', null, el('strong', { text: call.name }), ' ', decision,
        call.ms !== undefined ? el('span', { cls: 'muted', text: ' ' + amount(call.ms) + ' ms' }) : null,
        call.isError ? el('span', { cls: 'badge o-failed', text: 'is_error' }) : null),
      el('div', { cls: 'muted', text: 'input' }), el('pre', { text: s(call.input) }),
      el('div', { cls: 'muted', text: 'result, as the model saw it' }),
      call.result === undefined ? el('div', { cls: 'muted', text: '(no result: the run ended here)' }) :
        el('pre', { cls: call.isError ? 'error' : '', text: s(call.result) }));
  }

  function transcriptView(entry) {
    var box = el('div', { 'data-testid': 'transcript', 'data-trial': label(entry) });
    if (!details) { box.appendChild(el('p', { cls: 'muted', text: 'The transcripts are still loading; try again in a moment.' })); return box; }
    var t = Object.assign({}, entry, details[entry.i]);
    box.appendChild(el('h3', null, label(t) + ' ', badge(t.outcome)));
    box.appendChild(el('div', { cls: 'muted', text: [t.title, t.source ? 'fixtures: ' + t.source : '', t.status ? 'stop: ' + t.status : '',
      t.fixture || '', t.tracePath || ''].filter(Boolean).join(' \u00b7 ') }));
    if ((t.outcome === 'failed' || t.outcome === 'errored') && t.messages.length) {
      box.appendChild(el('div', { cls: 'message', 'data-testid': 'assertion' }, el('strong', { text: t.outcome === 'failed' ? 'Assertion' : 'Error' }),
        el('pre', { text: t.messages.join('\n\n') })));
    }
    if (t.outcome === 'stale' || t.outcome === 'missing') {
      box.appendChild(el('div', { cls: 'stale-box', 'data-testid': 'stale' }, el('strong', { text: t.outcome === 'stale' ? 'Stale fixture: where the request diverged' : 'Missing fixture' }),
        el('pre', { text: t.messages.join('\n\n') }),
        t.rerecordCommand ? el('div', null, 'Re-record with: ', el('code', { text: t.rerecordCommand })) : null));
    }
    var tr = t.transcript;
    if (!tr) { box.appendChild(el('p', { cls: 'muted', text: 'No transcript: ' + (t.unavailable || 'not recorded') })); return box; }
    var system = s(tr.system);
    box.appendChild(el('details', null, el('summary', { text: 'System prompt (' + system.length + ' characters)' }), el('pre', { text: system })));
    box.appendChild(el('div', { cls: 'muted', text: 'User' }));
    box.appendChild(el('div', { cls: 'user', text: s(tr.user) }));
    tr.turns.forEach(function (turn) {
      var tk = turn.tokens;
      var node = el('div', { cls: 'turn', 'data-testid': 'turn' }, el('div', { cls: 'turn-head', text: 'Turn ' + turn.step +
        ' \u00b7 ' + (turn.stopReason || 'no stop reason') + ' \u00b7 tokens in ' + amount(tk.input) + ' / out ' + amount(tk.output) +
        ' / cache read ' + amount(tk.cacheRead) + ' / cache write ' + amount(tk.cacheWrite) + ' \u00b7 ' + amount(turn.latencyMs) + ' ms (recorded)' }));
      if (turn.error) node.appendChild(el('pre', { cls: 'error', text: turn.error }));
      turn.blocks.forEach(function (block) {
        if (block.kind === 'text') node.appendChild(el('div', { cls: 'text', text: s(block.text) }));
        else if (block.kind === 'thinking') node.appendChild(el('details', null, el('summary', { text: 'thinking' }), el('pre', { text: s(block.text) })));
        else node.appendChild(toolCall(block.call));
      });
      box.appendChild(node);
    });
    box.appendChild(el('div', { cls: 'muted', text: 'Final answer' }));
    box.appendChild(el('div', { cls: 'answer', 'data-testid': 'final-answer', text: s(tr.finalAnswer) || '(no answer)' }));
    return box;
  }

  function showPanel(title, content) {
    var root = document.getElementById('panel');
    root.textContent = '';
    root.appendChild(el('h2', null, title + ' ', el('button', { text: 'close', onclick: function () { root.textContent = ''; } })));
    root.appendChild(content);
    root.scrollIntoView();
  }
  function openTranscript(t) { showPanel('Transcript', transcriptView(t)); }
  function openSideBySide(t) {
    var same = trials.filter(function (x) { return x.suite === t.suite && x.task === t.task && x.trial === t.trial; });
    var grid = el('div', { cls: 'side', 'data-testid': 'side-by-side' });
    same.forEach(function (x) { grid.appendChild(transcriptView(x)); });
    showPanel('Trial ' + t.trial + ' of ' + t.task + ' in ' + same.map(function (x) { return x.variant; }).join(' and '), grid);
  }

  function render() { renderScores(); renderTrials(); }
  renderHeader();
  renderFilters();
  render();
  // Times from navigation start, for the report's load-time figures.
  document.body.setAttribute('data-rendered-ms', String(Math.round(performance.now())));
  document.addEventListener('DOMContentLoaded', function () {
    var data = JSON.parse(document.getElementById('report-trials').textContent);
    details = data.details;
    texts = data.texts;
    document.body.setAttribute('data-details-ms', String(Math.round(performance.now())));
    document.body.setAttribute('data-ready', 'true');
  });
})();
`;
