import { clear, el, svg } from './dom.js';
import { unique } from './format.js';
import { model, trials, variantClass, variants } from './page-data.js';
import { line, niceTicks, plotFrame, scale, short, svgText } from './plot-svg.js';
import { forestPlot, legend, passKPlot } from './plots.js';

/** A per-trial figure the distribution plots draw (counted trials only have them). */
type Figure = 'latencyMs' | 'inputTokens' | 'outputTokens';

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;
}

/** One variant's row: its values as dots, with their quartile box, median and range. */
function distributionRow(
  root: SVGElement,
  variant: string,
  values: readonly number[],
  mid: number,
  x: (value: number) => number,
  L: number,
): void {
  const sorted = [...values].sort((a, b) => a - b);
  const q1 = quantile(sorted, 0.25),
    med = quantile(sorted, 0.5),
    q3 = quantile(sorted, 0.75);
  const cls = variantClass(variant);
  root.appendChild(svgText(L - 8, mid - 2, variant, 'row-label', 'end'));
  root.appendChild(
    svgText(L - 8, mid + 11, `n=${sorted.length}, median ${short(med)}`, 'tick', 'end'),
  );
  root.appendChild(line(x(sorted[0]!), mid, x(sorted[sorted.length - 1]!), mid, 'whisker'));
  root.appendChild(
    svg('rect', {
      x: x(q1),
      y: mid - 10,
      width: Math.max(1, x(q3) - x(q1)),
      height: 20,
      cls: `box ${cls}`,
    }),
  );
  root.appendChild(line(x(med), mid - 12, x(med), mid + 12, 'median'));
  values.forEach((value, j) => {
    root.appendChild(
      svg('circle', {
        cx: x(value),
        cy: mid - 14 + ((j * 0.618034) % 1) * 28,
        r: 1.8,
        cls: `dot ${cls}`,
      }),
    );
  });
}

/** Per variant: every counted trial's value as a dot, with its quartile box and median. */
function distributionPlot(field: Figure, title: string, unit: string, task: string): SVGElement {
  const groups = variants
    .map((variant) => ({
      variant,
      values: trials.flatMap((t) => {
        const value = t[field];
        return t.variant === variant && (!task || t.task === task) && typeof value === 'number'
          ? [value]
          : [];
      }),
    }))
    .filter((group) => group.values.length);
  const W = 620,
    L = 110,
    T = 24,
    step = 46,
    H = T + groups.length * step + 34;
  const max = groups.reduce((top, group) => group.values.reduce((a, b) => Math.max(a, b), top), 0);
  const ticks = niceTicks(max),
    x = scale(0, ticks[ticks.length - 1]!, L, W - 16);
  const root = plotFrame(
    W,
    H,
    `${title} per trial, per variant${task ? ` (${task})` : ' (all tasks)'}`,
    'plot-distribution',
  );
  root.appendChild(
    svgText(L, 14, title + (task ? ` \u00b7 ${task}` : ' \u00b7 all tasks'), 'plot-title', 'start'),
  );
  for (const v of ticks) {
    root.appendChild(line(x(v), T, x(v), H - 30, 'grid'));
    root.appendChild(svgText(x(v), H - 16, short(v)));
  }
  root.appendChild(svgText((L + W) / 2, H - 2, unit, 'axis'));
  if (!groups.length)
    root.appendChild(svgText((L + W) / 2, T + 20, 'no counted trial has this figure', 'tick'));
  groups.forEach((group, i) => {
    distributionRow(root, group.variant, group.values, T + i * step + step / 2, x, L);
  });
  return root;
}

/**
 * The plots view: the Δ forest plot of every task and suite, pass@k and pass^k against k with
 * their interval bands, and the per-trial latency and token distributions per variant.
 */
export function plotsView(root: HTMLElement): void {
  root.appendChild(el('h2', { text: 'Which change mattered: \u0394 pass@1 against the baseline' }));
  root.appendChild(
    el('p', {
      cls: 'muted',
      text: 'Diamonds: suites (paired by task); dots: tasks. Coloured: the interval leaves out 0; grey: not distinguishable at this n.',
    }),
  );
  root.appendChild(forestPlot());
  root.appendChild(el('h2', { text: 'pass@k and pass^k against k' }));
  root.appendChild(legend());
  const grid = el('div', { cls: 'plot-grid' });
  for (const key of unique(model.rows.map((r) => `${r.suite}\u0000${r.task}`))) {
    grid.appendChild(passKPlot(model.rows.filter((r) => `${r.suite}\u0000${r.task}` === key)));
  }
  root.appendChild(grid);
  root.appendChild(el('h2', { text: 'Per-trial latency and tokens' }));
  const select = el(
    'select',
    { 'data-testid': 'plot-task' },
    el('option', { value: '', text: 'all tasks' }),
  );
  for (const task of unique(trials.map((t) => t.task)))
    select.appendChild(el('option', { value: task, text: task }));
  const box = el('div', { cls: 'plot-grid' });
  const draw = () => {
    clear(box);
    box.appendChild(
      distributionPlot(
        'latencyMs',
        'Model latency',
        'ms per trial (sum of its model calls, as recorded)',
        select.value,
      ),
    );
    box.appendChild(
      distributionPlot('inputTokens', 'Input tokens', 'input tokens per trial', select.value),
    );
    box.appendChild(
      distributionPlot('outputTokens', 'Output tokens', 'output tokens per trial', select.value),
    );
  };
  select.addEventListener('change', draw);
  root.appendChild(el('label', { cls: 'inline' }, 'Task ', select));
  root.appendChild(
    el('p', {
      cls: 'muted',
      text: 'Counted trials only. Boxes: quartiles; bar: median; line: range.',
    }),
  );
  root.appendChild(box);
  draw();
}
