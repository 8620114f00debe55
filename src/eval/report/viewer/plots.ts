import type { ShownDelta } from '../html-model.js';
import { el, svg } from './dom.js';
import { unique } from './format.js';
import { model, type ScoreRow, variantClass, variants } from './page-data.js';
import { line, plotFrame, scale, svgText } from './plot-svg.js';

type Delta = ShownDelta;
type ForestRow = { text: string; delta: Delta; suite?: boolean };

/** The forest plot's rows: each suite's Δ, then its tasks'. */
function forestRows(): ForestRow[] {
  const rows: ForestRow[] = [];
  for (const s of model.summary) {
    if (!s.delta) continue;
    const tasks = `${s.delta.tasks}${s.delta.tasks === 1 ? ' task)' : ' tasks)'}`;
    rows.push({ text: `${s.suite} \u00b7 ${s.variant} (${tasks}`, delta: s.delta, suite: true });
    for (const r of model.rows) {
      if (r.suite === s.suite && r.variant === s.variant && r.delta) {
        rows.push({ text: `${r.task} ${r.variant}`, delta: r.delta });
      }
    }
  }
  return rows;
}

/** Δ pass@1 of each variant against the baseline: suites (diamonds) then tasks, with intervals. */
export function forestPlot(): Element {
  const rows = forestRows();
  if (!rows.length) {
    return el('p', {
      cls: 'muted',
      'data-testid': 'plot-forest',
      text: 'No \u0394 to plot: no task ran more than one variant.',
    });
  }
  const W = 860,
    L = 260,
    R = 200,
    top = 16,
    step = 22,
    height = top + rows.length * step + 34;
  const x = scale(-1, 1, L, W - R);
  const root = plotFrame(
    W,
    height,
    '\u0394 pass@1 against the baseline, with 95% intervals, per suite and task',
    'plot-forest',
  );
  for (const v of [-1, -0.5, 0, 0.5, 1]) {
    root.appendChild(line(x(v), top - 6, x(v), height - 30, v === 0 ? 'zero' : 'grid'));
    root.appendChild(svgText(x(v), height - 16, `${v > 0 ? '+' : ''}${v}`));
  }
  const against = unique(rows.map((row) => row.delta.against));
  const axis = `\u0394 pass@1 (variant \u2212 ${against.length === 1 ? against[0] : 'its baseline'})`;
  root.appendChild(svgText((L + W - R) / 2, height - 2, axis, 'axis'));
  rows.forEach((row, i) => {
    const y = top + i * step + step / 2,
      d = row.delta;
    const tone = d.distinguishable ? (d.value !== null && d.value > 0 ? 'up' : 'down') : 'flat';
    const g = svg('g', { cls: `forest-row ${tone}`, 'data-testid': 'forest-row' });
    const text = row.text + (against.length === 1 ? '' : ` vs ${d.against}`);
    g.appendChild(svgText(L - 8, y + 4, text, row.suite ? 'row-label strong' : 'row-label', 'end'));
    if (d.lower !== null && d.upper !== null)
      g.appendChild(line(x(d.lower), y, x(d.upper), y, 'whisker'));
    if (d.value !== null) {
      g.appendChild(
        row.suite
          ? svg('path', { d: `M${x(d.value) - 6} ${y}l6 -6l6 6l-6 6z`, cls: 'point' })
          : svg('circle', { cx: x(d.value), cy: y, r: 4, cls: 'point' }),
      );
    }
    g.appendChild(svgText(W - R + 8, y + 4, d.text, 'row-label', 'start'));
    root.appendChild(g);
  });
  return root;
}

type Point = [k: number, value: number];

/** Contiguous runs of points whose values exist. */
function runs(ks: readonly number[], valueAt: (k: number) => number | null | undefined): Point[][] {
  const all: Point[][] = [];
  let current: Point[] = [];
  for (const k of ks) {
    const value = valueAt(k);
    if (value === null || value === undefined) {
      if (current.length) all.push(current);
      current = [];
    } else current.push([k, value]);
  }
  if (current.length) all.push(current);
  return all;
}

function pathOf(
  points: readonly Point[],
  x: (k: number) => number,
  y: (value: number) => number,
): string {
  return points
    .map((p, i) => `${i ? 'L' : 'M'}${x(p[0]).toFixed(1)} ${y(p[1]).toFixed(1)}`)
    .join('');
}

type Axis = (value: number) => number;

/** One variant's pass^k (solid) or pass@k (dashed) curve, its interval band behind. */
function curve(
  root: SVGElement,
  r: ScoreRow,
  measure: 'passHatK' | 'passAtK',
  ks: number[],
  x: Axis,
  y: Axis,
): void {
  const cls = variantClass(r.variant);
  const bands = r.intervals[measure] as Record<
    string,
    { lower: number; upper: number } | null | undefined
  >;
  const values = r[measure] as Record<string, number | null | undefined>;
  for (const upper of runs(ks, (k) => bands[String(k)]?.upper ?? null)) {
    const lower = upper.map((p): Point => [p[0], bands[String(p[0])]!.lower]).reverse();
    if (upper.length > 1) {
      const d = `${pathOf(upper, x, y)}${pathOf(lower, x, y).replace('M', 'L')}Z`;
      root.appendChild(svg('path', { d, cls: `band ${cls}` }));
    }
  }
  const dashes = measure === 'passHatK' ? 'solid' : 'dashed';
  for (const points of runs(ks, (k) => values[String(k)])) {
    root.appendChild(svg('path', { d: pathOf(points, x, y), cls: `curve ${dashes} ${cls}` }));
    if (points.length === 1 || ks.length <= 12) {
      for (const p of points)
        root.appendChild(svg('circle', { cx: x(p[0]), cy: y(p[1]), r: 2.5, cls: `dot ${cls}` }));
    }
  }
}

/** One task: pass^k (solid) and pass@k (dashed) against k per variant, interval bands behind. */
export function passKPlot(rows: readonly ScoreRow[]): SVGElement {
  const first = rows[0]!;
  const maxK = Math.max(1, ...rows.map((r) => Object.keys(r.passHatK).length));
  const ks = Array.from({ length: maxK }, (_, at) => at + 1);
  const W = 300,
    H = 190,
    L = 36,
    B = 34,
    T = 24;
  const x = maxK === 1 ? () => (L + W - 8) / 2 : scale(1, maxK, L, W - 8);
  const y = scale(0, 1, H - B, T);
  const title = `pass@k and pass^k against k for ${first.task} (${first.title}): ${rows.map((r) => r.variant).join(', ')}`;
  const root = plotFrame(W, H, title, 'plot-passk');
  root.appendChild(svgText(L, 14, `${first.task} ${first.title}`, 'plot-title', 'start'));
  root.appendChild(svgText(4, T - 6, 'rate', 'tick', 'start'));
  for (const v of [0, 0.5, 1]) {
    root.appendChild(line(L, y(v), W - 8, y(v), 'grid'));
    root.appendChild(svgText(L - 4, y(v) + 4, String(v), 'tick', 'end'));
  }
  const tickEvery = Math.max(1, Math.ceil(maxK / 8));
  for (const k of ks) {
    if ((k - 1) % tickEvery === 0 || k === maxK)
      root.appendChild(svgText(x(k), H - B + 14, String(k)));
  }
  root.appendChild(svgText((L + W) / 2, H - 4, 'k (trials drawn)', 'axis'));
  for (const r of rows) {
    curve(root, r, 'passHatK', ks, x, y);
    curve(root, r, 'passAtK', ks, x, y);
  }
  return root;
}

export function legend(): HTMLElement {
  const box = el('div', { cls: 'legend', 'data-testid': 'legend' });
  for (const v of variants) box.appendChild(el('span', { cls: `key ${variantClass(v)}`, text: v }));
  box.appendChild(
    el('span', {
      cls: 'muted',
      text: 'solid: pass^k \u00b7 dashed: pass@k \u00b7 bands: 95% intervals',
    }),
  );
  return box;
}
