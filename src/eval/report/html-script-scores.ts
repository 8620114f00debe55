/**
 * The viewer's header and scores view: the suite summary with each variant's Δ against the
 * baseline, the scores with the variants as rows under their task (and marks for mixed models
 * and fixture problems), tokens and timing, the comparison with a reference, re-record commands.
 */
export const VIEWER_SCORES = String.raw`
function renderHeader(root) {
  var h = model.header;
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
  root.appendChild(el('div', { cls: 'muted', text: 'Model: ' + (h.models.join(', ') || NONE) +
    ' \u00b7 Date: ' + h.generatedAt + ' \u00b7 Trials: ' + h.trials + ' per task and variant \u00b7 Suite: ' +
    (h.suites.join(', ') || NONE) }));
  root.appendChild(el('div', { 'data-testid': 'gate', cls: model.gate.passed ? 'gate-pass' : 'gate-fail',
    text: model.gate.passed ? 'Gate: passed' : 'Gate: FAILED' }));
  listOf(root, null, model.gate.reasons);
  listOf(root, 'Warnings (noise at this n, not failing):', model.gate.warnings || []);
  renderChanges(root);
}
function renderChanges(root) {
  var c = model.changes;
  if (!c) return;
  var box = el('section', { 'data-testid': 'changes' }, el('h2', { text: c.title }));
  c.reference.forEach(function (line) { box.appendChild(el('p', { cls: 'muted', text: line })); });
  listOf(box, 'Edited by hand (curated), with who and why', c.curated || []);
  listOf(box, 'Changed but not re-recorded (fails the gate)', c.edited || []);
  listOf(box, 'Task files, datasets, rubrics and labels changed', c.inputs || []);
  if (c.rows.length) box.appendChild(table(['Task', 'Variant', 'Change', 'pass@1', 'pass^k'], c.rows, [], 'reference-changes'));
  var shown = c.fixtures.slice(0, 200);
  if (shown.length) box.appendChild(table(['Cassette', 'Status', 'Before', 'After', 'Changed in'], shown, [], 'fixture-changes'));
  var more = c.more + c.fixtures.length - shown.length;
  if (more > 0) box.appendChild(el('p', { cls: 'muted', text: '\u2026 and ' + more + ' more changed cassettes (reports/latest.json).' }));
  root.appendChild(box);
}
function listOf(root, title, lines) {
  if (!lines.length) return;
  if (title) root.appendChild(el('div', { cls: 'muted', text: title }));
  var list = el('ul', null);
  lines.forEach(function (line) { list.appendChild(el('li', { text: line })); });
  root.appendChild(list);
}

/** "vs baseline" when every Δ of these rows is against one variant, else each cell says so. */
function againstOf(rows) {
  var against = unique(rows.filter(function (r) { return r.delta; }).map(function (r) { return r.delta.against; }));
  return against.length === 1 ? ' vs ' + against[0] : '';
}

function summaryTable() {
  var k = model.k;
  var rows = model.summary;
  var suffix = againstOf(rows);
  var body = rows.map(function (r) {
    return [r.suite, r.variant, r.tasks + (r.excludedTasks.length ? ' (left out: ' + r.excludedTasks.join(', ') + ')' : ''),
      r.passAt1, r.passAtK, r.passHatK, amount(r.tokens.input), amount(r.tokens.output),
      r.delta ? deltaCell(r.delta, suffix) : ''];
  });
  var section = el('section', { 'data-testid': 'suite-summary' }, el('h2', { text: 'Suite summary' }),
    el('p', { cls: 'muted', text: 'Means over tasks (intervals: bootstrap over tasks and the trials within each); ' +
      'a task with no counted trial is left out and named. \u0394: paired by task.' }),
    table(['Suite', 'Variant', 'Tasks', 'pass@1', 'pass@' + k, 'pass^' + k, 'Input', 'Output', '\u0394 pass@1' + suffix],
      body, [2, 3, 4, 5, 6, 7, 8]));
  rows.forEach(function (r) { if (r.delta) section.appendChild(el('div', { cls: 'muted', 'data-testid': 'suite-delta', text: r.delta.sentence })); });
  if (model.summaryNote) section.appendChild(el('div', { cls: 'muted', 'data-testid': 'suite-note', text: model.summaryNote }));
  return section;
}
function deltaCell(delta, suffix) { return suffix ? delta.text : delta.text + ' vs ' + delta.against; }

function markList(marks) {
  var box = el('span', null);
  marks.forEach(function (m) {
    box.appendChild(el('span', { cls: 'mark mark-' + m.kind, 'data-testid': 'mark', 'data-kind': m.kind, title: m.title, text: m.text }));
  });
  return box;
}

/** One table per suite; a task's variants are rows under it, its id and title spanning them. */
function scoreTable(rows) {
  var k = model.k;
  var suffix = againstOf(rows);
  var head = ['Task', 'Title', 'Variant', 'c/n', 'pass@1', 'pass@' + k, 'pass^' + k, '\u0394 pass@1' + suffix, '\u0394 pass^k' + suffix, 'Marks', ''];
  var body = el('tbody', null);
  rows.forEach(function (r, at) {
    var first = at === 0 || rows[at - 1].task !== r.task;
    var span = rows.filter(function (x) { return x.task === r.task; }).length;
    var tr = el('tr', { 'data-testid': 'score-row', 'data-task': r.task, 'data-variant': r.variant, cls: first ? 'task-first' : '' });
    if (first) {
      tr.appendChild(el('th', { rowspan: span, scope: 'rowgroup', text: r.task }));
      tr.appendChild(el('td', { rowspan: span, text: r.title }));
    }
    var bar = el('span', { cls: 'bar' });
    bar.style.width = Math.round((r.passHatKValue || 0) * 40) + 'px';
    [el('span', { cls: 'variant ' + variantClass(r.variant), text: r.variant }), r.counted, r.withIntervals.passAt1,
      r.withIntervals.passAtK, el('span', null, bar, ' ' + r.withIntervals.passHatK),
      r.delta ? deltaCell(r.delta, suffix) : '', r.delta ? r.delta.passHatK : '', markList(r.marks),
      el('button', { 'data-action': 'trials-of', text: 'trials', onclick: function () { showTrialsOf(r); } })
    ].forEach(function (cell, i) {
      var td = el('td', { cls: i >= 1 && i <= 6 ? 'num' : null, 'data-testid': i === 5 ? 'delta' : null });
      if (typeof cell === 'string') td.textContent = cell; else td.appendChild(cell);
      tr.appendChild(td);
    });
    body.appendChild(tr);
  });
  var tr = el('tr', null);
  head.forEach(function (h) { tr.appendChild(el('th', { text: h })); });
  return el('table', { 'data-testid': 'scores', cls: 'scores' }, el('thead', null, tr), body);
}

function costTable() {
  var rows = model.rows.map(function (r) {
    return [r.task, r.variant, amount(r.tokens.input), amount(r.tokens.output), amount(r.tokens.cacheRead),
      amount(r.tokens.cacheWrite), mean(r.steps), mean(r.toolCalls), mean(r.toolErrors), mean(r.unconfirmedWrites),
      amount(r.modelLatencyMs.p50), amount(r.modelLatencyMs.p95), amount(r.toolMs)];
  });
  return table(['Task', 'Variant', 'Input', 'Output', 'Cache read', 'Cache write', 'Steps', 'Tool calls',
    'Tool errors', 'Unconfirmed writes', 'Model p50 ms', 'Model p95 ms', 'Tool ms'], rows, [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], 'costs');
}

function dollarsSection(root) {
  var d = model.cost;
  if (!d) return;
  root.appendChild(el('h2', { text: d.title }));
  root.appendChild(table(d.head, d.rows, [2, 3, 4, 5], 'cost'));
  root.appendChild(el('h3', { text: 'Per variant' }));
  root.appendChild(table(d.variantHead, d.variants, [2, 3, 4, 5], 'cost-variants'));
  d.lines.forEach(function (line) {
    root.appendChild(el('p', { cls: line.indexOf('  ') === 0 ? 'muted' : null, 'data-testid': 'cost-line', text: line.trim() }));
  });
}

function scoresView(root) {
  root.appendChild(summaryTable());
  root.appendChild(el('h2', { text: 'Scores' }));
  root.appendChild(el('p', { cls: 'muted', text: 'Rates with their 95% interval [lower, upper] (Wilson; \u0394: Newcombe), ' +
    'each variant against the baseline of its suite.' + (model.undecided ? ' ' + model.notDistinguishable : '') }));
  model.notes.forEach(function (note) { root.appendChild(el('p', { cls: 'muted', 'data-testid': 'score-note', text: note })); });
  unique(model.rows.map(function (r) { return r.suite; })).forEach(function (suite) {
    if (model.bySuite) root.appendChild(el('h3', { text: suite }));
    root.appendChild(scoreTable(model.rows.filter(function (r) { return r.suite === suite; })));
  });
  model.cases.forEach(function (c) {
    root.appendChild(el('h3', { text: 'Cases of ' + c.task + ' ' + c.title + ' (the task\u2019s rates are their means)' }));
    root.appendChild(table(['Case'].concat(c.variants), c.rows.map(function (r) { return [r.case].concat(r.cells); }),
      c.variants.map(function (_, i) { return i + 1; }), 'cases'));
  });
  root.appendChild(el('h2', { text: 'Tokens and timing' }));
  root.appendChild(el('p', { cls: 'muted', text: 'Means per counted trial; model latency as recorded; tool time is virtual when replayed.' +
    (model.header.estimatedTokens ? ' Simulator token counts are estimates.' : '') }));
  root.appendChild(costTable());
  dollarsSection(root);
  var c = model.comparison;
  if (c) {
    root.appendChild(el('h2', { text: 'Compared with the reference (' + c.referenceGeneratedAt + ')' }));
    root.appendChild(table(['Task', 'Variant', 'pass@1', 'k', 'pass^k', 'Change'], c.entries.map(function (e) {
      return [e.task, e.variant, rate(e.passAt1.before) + ' \u2192 ' + rate(e.passAt1.after),
        e.passHatK.k === null ? '' : String(e.passHatK.k), rate(e.passHatK.before) + ' \u2192 ' + rate(e.passHatK.after), e.flag];
    }), null, 'comparison'));
  }
  var d = model.decisions;
  if (d) {
    root.appendChild(el('h2', { text: d.title }));
    root.appendChild(table(d.head, d.rows, [4, 6], 'decisions'));
    root.appendChild(el('p', { cls: 'muted', text: d.note }));
  }
  if (model.staleCommands.length) {
    root.appendChild(el('h2', { text: 'Re-record the stale or missing fixtures' }));
    root.appendChild(el('pre', { text: model.staleCommands.join('\n') }));
  }
}
`;
