/**
 * The viewer's plots, inline SVG drawn here (no library): the Δ forest plot of every task and
 * suite, pass@k and pass^k against k with their interval bands, and the per-trial latency and
 * token distributions per variant. Every plot is an img with a title and labelled axes.
 */
export const VIEWER_PLOTS = String.raw`
function scale(d0, d1, r0, r1) {
  return function (v) { return r0 + (v - d0) / (d1 - d0 || 1) * (r1 - r0); };
}
function plotFrame(width, height, title, testid) {
  var root = svg('svg', { viewBox: '0 0 ' + width + ' ' + height, width: width, height: height,
    role: 'img', 'aria-label': title, 'data-testid': testid, cls: 'plot' });
  root.appendChild(svg('title', { text: title }));
  return root;
}
function line(x1, y1, x2, y2, cls) { return svg('line', { x1: x1, y1: y1, x2: x2, y2: y2, cls: cls }); }
function svgText(x, y, text, cls, anchor) {
  return svg('text', { x: x, y: y, cls: cls || 'tick', 'text-anchor': anchor || 'middle', text: text });
}
/** Round steps (1, 2 or 5 times a power of ten) from 0 to past max. */
function niceTicks(max) {
  if (!(max > 0)) return [0, 1];
  var step = Math.pow(10, Math.floor(Math.log10(max / 4)));
  var factor = [1, 2, 5, 10].filter(function (f) { return max / (step * f) <= 5; })[0];
  step *= factor;
  var ticks = [];
  for (var v = 0; v <= max + step * 0.999; v += step) ticks.push(Math.round(v * 1e6) / 1e6);
  return ticks;
}
function short(value) {
  return value >= 1e6 ? (value / 1e6).toFixed(1) + 'M' : value >= 1e4 ? Math.round(value / 1e3) + 'k' : String(value);
}

/** Δ pass@1 of each variant against the baseline: suites (diamonds) then tasks, with intervals. */
function forestPlot() {
  var rows = [];
  model.summary.forEach(function (s) {
    if (!s.delta) return;
    rows.push({ text: s.suite + ' \u00b7 ' + s.variant + ' (' + s.delta.tasks + (s.delta.tasks === 1 ? ' task)' : ' tasks)'), delta: s.delta, suite: true });
    model.rows.forEach(function (r) {
      if (r.suite === s.suite && r.variant === s.variant && r.delta) rows.push({ text: r.task + ' ' + r.variant, delta: r.delta });
    });
  });
  if (!rows.length) return el('p', { cls: 'muted', 'data-testid': 'plot-forest', text: 'No \u0394 to plot: no task ran more than one variant.' });
  var W = 860, L = 260, R = 200, top = 16, step = 22, height = top + rows.length * step + 34;
  var x = scale(-1, 1, L, W - R);
  var root = plotFrame(W, height, '\u0394 pass@1 against the baseline, with 95% intervals, per suite and task', 'plot-forest');
  [-1, -0.5, 0, 0.5, 1].forEach(function (v) {
    root.appendChild(line(x(v), top - 6, x(v), height - 30, v === 0 ? 'zero' : 'grid'));
    root.appendChild(svgText(x(v), height - 16, (v > 0 ? '+' : '') + v));
  });
  var against = unique(rows.map(function (row) { return row.delta.against; }));
  root.appendChild(svgText((L + W - R) / 2, height - 2, '\u0394 pass@1 (variant \u2212 ' + (against.length === 1 ? against[0] : 'its baseline') + ')', 'axis'));
  rows.forEach(function (row, i) {
    var y = top + i * step + step / 2, d = row.delta;
    var tone = d.distinguishable ? (d.value > 0 ? 'up' : 'down') : 'flat';
    var g = svg('g', { cls: 'forest-row ' + tone, 'data-testid': 'forest-row' });
    g.appendChild(svgText(L - 8, y + 4, row.text + (against.length === 1 ? '' : ' vs ' + d.against), row.suite ? 'row-label strong' : 'row-label', 'end'));
    if (d.lower !== null) g.appendChild(line(x(d.lower), y, x(d.upper), y, 'whisker'));
    if (d.value !== null) {
      g.appendChild(row.suite ? svg('path', { d: 'M' + (x(d.value) - 6) + ' ' + y + 'l6 -6l6 6l-6 6z', cls: 'point' })
        : svg('circle', { cx: x(d.value), cy: y, r: 4, cls: 'point' }));
    }
    g.appendChild(svgText(W - R + 8, y + 4, d.text, 'row-label', 'start'));
    root.appendChild(g);
  });
  return root;
}

/** Contiguous runs of points whose values exist. */
function runs(ks, valueAt) {
  var all = [], current = [];
  ks.forEach(function (k) {
    var v = valueAt(k);
    if (v === null || v === undefined) { if (current.length) all.push(current); current = []; } else current.push([k, v]);
  });
  if (current.length) all.push(current);
  return all;
}
function pathOf(points, x, y) {
  return points.map(function (p, i) { return (i ? 'L' : 'M') + x(p[0]).toFixed(1) + ' ' + y(p[1]).toFixed(1); }).join('');
}

/** One task: pass^k (solid) and pass@k (dashed) against k per variant, interval bands behind. */
function passKPlot(rows) {
  var first = rows[0];
  var maxK = 1;
  rows.forEach(function (r) { maxK = Math.max(maxK, Object.keys(r.passHatK).length); });
  var ks = []; for (var k = 1; k <= maxK; k++) ks.push(k);
  var W = 300, H = 190, L = 36, B = 34, T = 24;
  var x = maxK === 1 ? function () { return (L + W - 8) / 2; } : scale(1, maxK, L, W - 8);
  var y = scale(0, 1, H - B, T);
  var root = plotFrame(W, H, 'pass@k and pass^k against k for ' + first.task + ' (' + first.title + '): ' +
    rows.map(function (r) { return r.variant; }).join(', '), 'plot-passk');
  root.appendChild(svgText(L, 14, first.task + ' ' + first.title, 'plot-title', 'start'));
  root.appendChild(svgText(4, T - 6, 'rate', 'tick', 'start'));
  [0, 0.5, 1].forEach(function (v) { root.appendChild(line(L, y(v), W - 8, y(v), 'grid')); root.appendChild(svgText(L - 4, y(v) + 4, String(v), 'tick', 'end')); });
  var tickEvery = Math.max(1, Math.ceil(maxK / 8));
  ks.forEach(function (k) { if ((k - 1) % tickEvery === 0 || k === maxK) root.appendChild(svgText(x(k), H - B + 14, String(k))); });
  root.appendChild(svgText((L + W) / 2, H - 4, 'k (trials drawn)', 'axis'));
  rows.forEach(function (r) {
    var cls = variantClass(r.variant);
    [['passHatK', 'solid'], ['passAtK', 'dashed']].forEach(function (m) {
      var bands = r.intervals[m[0]];
      runs(ks, function (k) { return bands[String(k)] ? bands[String(k)].upper : null; }).forEach(function (upper) {
        var lower = upper.map(function (p) { return [p[0], bands[String(p[0])].lower]; }).reverse();
        if (upper.length > 1) root.appendChild(svg('path', { d: pathOf(upper, x, y) + pathOf(lower, x, y).replace('M', 'L') + 'Z', cls: 'band ' + cls }));
      });
      runs(ks, function (k) { return r[m[0]][String(k)]; }).forEach(function (points) {
        root.appendChild(svg('path', { d: pathOf(points, x, y), cls: 'curve ' + m[1] + ' ' + cls }));
        if (points.length === 1 || maxK <= 12) points.forEach(function (p) { root.appendChild(svg('circle', { cx: x(p[0]), cy: y(p[1]), r: 2.5, cls: 'dot ' + cls })); });
      });
    });
  });
  return root;
}
function legend() {
  var box = el('div', { cls: 'legend', 'data-testid': 'legend' });
  variants.forEach(function (v) { box.appendChild(el('span', { cls: 'key ' + variantClass(v), text: v })); });
  box.appendChild(el('span', { cls: 'muted', text: 'solid: pass^k \u00b7 dashed: pass@k \u00b7 bands: 95% intervals' }));
  return box;
}

function quantile(sorted, q) { return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]; }
/** Per variant: every counted trial's value as a dot, with its quartile box and median. */
function distributionPlot(field, title, unit, task) {
  var groups = variants.map(function (v) {
    return { variant: v, values: trials.filter(function (t) {
      return t.variant === v && (!task || t.task === task) && typeof t[field] === 'number';
    }).map(function (t) { return t[field]; }) };
  }).filter(function (g) { return g.values.length; });
  var W = 620, L = 110, T = 24, step = 46, H = T + groups.length * step + 34;
  var max = 0;
  groups.forEach(function (g) { g.values.forEach(function (v) { if (v > max) max = v; }); });
  var ticks = niceTicks(max), x = scale(0, ticks[ticks.length - 1], L, W - 16);
  var root = plotFrame(W, H, title + ' per trial, per variant' + (task ? ' (' + task + ')' : ' (all tasks)'), 'plot-distribution');
  root.appendChild(svgText(L, 14, title + (task ? ' \u00b7 ' + task : ' \u00b7 all tasks'), 'plot-title', 'start'));
  ticks.forEach(function (v) { root.appendChild(line(x(v), T, x(v), H - 30, 'grid')); root.appendChild(svgText(x(v), H - 16, short(v))); });
  root.appendChild(svgText((L + W) / 2, H - 2, unit, 'axis'));
  if (!groups.length) root.appendChild(svgText((L + W) / 2, T + 20, 'no counted trial has this figure', 'tick'));
  groups.forEach(function (g, i) {
    var mid = T + i * step + step / 2, sorted = g.values.slice().sort(function (a, b) { return a - b; });
    var q1 = quantile(sorted, 0.25), med = quantile(sorted, 0.5), q3 = quantile(sorted, 0.75);
    var cls = variantClass(g.variant);
    root.appendChild(svgText(L - 8, mid - 2, g.variant, 'row-label', 'end'));
    root.appendChild(svgText(L - 8, mid + 11, 'n=' + sorted.length + ', median ' + short(med), 'tick', 'end'));
    root.appendChild(line(x(sorted[0]), mid, x(sorted[sorted.length - 1]), mid, 'whisker'));
    root.appendChild(svg('rect', { x: x(q1), y: mid - 10, width: Math.max(1, x(q3) - x(q1)), height: 20, cls: 'box ' + cls }));
    root.appendChild(line(x(med), mid - 12, x(med), mid + 12, 'median'));
    g.values.forEach(function (v, j) {
      root.appendChild(svg('circle', { cx: x(v), cy: mid - 14 + ((j * 0.618034) % 1) * 28, r: 1.8, cls: 'dot ' + cls }));
    });
  });
  return root;
}

function plotsView(root) {
  root.appendChild(el('h2', { text: 'Which change mattered: \u0394 pass@1 against the baseline' }));
  root.appendChild(el('p', { cls: 'muted', text: 'Diamonds: suites (paired by task); dots: tasks. Coloured: the interval leaves out 0; grey: not distinguishable at this n.' }));
  root.appendChild(forestPlot());
  root.appendChild(el('h2', { text: 'pass@k and pass^k against k' }));
  root.appendChild(legend());
  var grid = el('div', { cls: 'plot-grid' });
  unique(model.rows.map(function (r) { return r.suite + '\u0000' + r.task; })).forEach(function (key) {
    grid.appendChild(passKPlot(model.rows.filter(function (r) { return r.suite + '\u0000' + r.task === key; })));
  });
  root.appendChild(grid);
  root.appendChild(el('h2', { text: 'Per-trial latency and tokens' }));
  var select = el('select', { 'data-testid': 'plot-task' }, el('option', { value: '', text: 'all tasks' }));
  unique(trials.map(function (t) { return t.task; })).forEach(function (t) { select.appendChild(el('option', { value: t, text: t })); });
  var box = el('div', { cls: 'plot-grid' });
  function draw() {
    clear(box);
    box.appendChild(distributionPlot('latencyMs', 'Model latency', 'ms per trial (sum of its model calls, as recorded)', select.value));
    box.appendChild(distributionPlot('inputTokens', 'Input tokens', 'input tokens per trial', select.value));
    box.appendChild(distributionPlot('outputTokens', 'Output tokens', 'output tokens per trial', select.value));
  }
  select.addEventListener('change', draw);
  root.appendChild(el('label', { cls: 'inline' }, 'Task ', select));
  root.appendChild(el('p', { cls: 'muted', text: 'Counted trials only. Boxes: quartiles; bar: median; line: range.' }));
  root.appendChild(box);
  draw();
}
`;
