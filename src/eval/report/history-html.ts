import { createHash } from 'node:crypto';
import { formatRate } from './format.js';
import { formatInterval } from './format-interval.js';
import { HISTORY_RULE, renderHistoryMarkdown } from './history-markdown.js';
import type { History, HistoryMark, HistorySeries } from './history-model.js';
import { htmlText } from './html-text.js';

const WIDTH = 260;
const HEIGHT = 96;
const PAD = { left: 26, right: 8, top: 14, bottom: 10 };
const GLYPHS: Record<HistoryMark, string> = {
  regressed: '▼',
  recovered: '▲',
  improved: '△',
  flaky: '◆',
};

const HISTORY_STYLE = `body{font:14px system-ui,sans-serif;margin:1.5rem;color:#222}
.multiples{display:flex;flex-wrap:wrap;gap:12px}
figure{margin:0;border:1px solid #ddd;padding:4px}
figcaption{font-size:12px}
.axis{stroke:#bbb;stroke-width:1}
.tick{font-size:9px;fill:#777}
.ci{stroke:#9ab;stroke-width:2}
.line{fill:none;stroke:#468;stroke-width:1.2}
.point{fill:#246}
.mark{font-size:11px;text-anchor:middle}
.regressed{fill:#c22}.recovered{fill:#282}.improved{fill:#26a}.flaky{fill:#d80}
pre{white-space:pre-wrap;background:#f6f6f6;padding:8px}`;

const sha256 = (value: string) => `'sha256-${createHash('sha256').update(value).digest('base64')}'`;

/** No script at all, no network: only the one stylesheet, by its hash. */
export const HISTORY_CSP = [
  "default-src 'none'",
  `style-src ${sha256(HISTORY_STYLE)}`,
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** One row's plot: pass@1 per point with its interval, the line between, the marks above. */
export function historySvg(history: History, series: HistorySeries): string {
  const count = Math.max(history.points.length - 1, 1);
  const x = (at: number) => PAD.left + (at / count) * (WIDTH - PAD.left - PAD.right);
  const y = (rate: number) => PAD.top + (1 - rate) * (HEIGHT - PAD.top - PAD.bottom);
  const f = (value: number) => value.toFixed(1);
  const parts: string[] = [
    `<line class="axis" x1="${PAD.left}" y1="${f(y(0))}" x2="${WIDTH - PAD.right}" y2="${f(y(0))}"/>`,
    `<line class="axis" x1="${PAD.left}" y1="${f(y(1))}" x2="${PAD.left}" y2="${f(y(0))}"/>`,
    `<text class="tick" x="2" y="${f(y(1) + 3)}">1</text><text class="tick" x="2" y="${f(y(0))}">0</text>`,
  ];
  const line: string[] = [];
  for (const [at, value] of series.values.entries()) {
    if (!value) continue;
    const point = history.points[at]!;
    line.push(`${f(x(at))},${f(y(value.rate))}`);
    parts.push(
      `<line class="ci" x1="${f(x(at))}" y1="${f(y(value.interval.upper))}" x2="${f(x(at))}" y2="${f(y(value.interval.lower))}"/>`,
      `<circle class="point" cx="${f(x(at))}" cy="${f(y(value.rate))}" r="2.2" data-at="${at}" data-commit="${htmlText(point.id)}" data-rate="${Number(value.rate.toFixed(4))}"><title>${htmlText(`${point.label}: ${value.passed}/${value.n} = ${formatRate(value.rate)} ${formatInterval(value.interval)}`)}</title></circle>`,
    );
  }
  parts.splice(3, 0, `<polyline class="line" points="${line.join(' ')}"/>`);
  for (const change of series.changes) {
    const point = history.points[change.at]!;
    parts.push(
      `<text class="mark ${change.mark}" x="${f(x(change.at))}" y="${PAD.top - 3}" data-mark="${change.mark}" data-commit="${htmlText(point.id)}">${GLYPHS[change.mark]}<title>${htmlText(`${change.mark} at ${point.label}`)}</title></text>`,
    );
  }
  const name = `${series.suite} ${series.task} ${series.variant}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${htmlText(`pass@1 of ${name}`)}">${parts.join('')}</svg>`;
}

/**
 * `reports/history.html`: one small plot per task and variant (pass@1 with its 95% interval at
 * each report, ▼ regressed, ▲ recovered, △ improved, ◆ flaky), then the markdown summary as
 * text. Static: no script, no external asset, its CSP allows only its own stylesheet.
 */
export function renderHistoryHtml(history: History): string {
  const figures = history.series.map(
    (series) =>
      `<figure data-row="${htmlText(`${series.suite}/${series.task}/${series.variant}`)}">${historySvg(history, series)}<figcaption>${htmlText(`${series.suite} ${series.task} ${series.variant}`)}</figcaption></figure>`,
  );
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${HISTORY_CSP}">`,
    `<title>${htmlText(`History of ${history.source}`)}</title>`,
    `<style>${HISTORY_STYLE}</style>`,
    '</head><body>',
    `<section id="history"><h1>${htmlText(`History of ${history.source}`)}</h1>`,
    `<p>${htmlText(`${history.points.length} reports, oldest on the left. ▼ regressed, ▲ recovered, △ improved, ◆ flaky. ${HISTORY_RULE}`)}</p>`,
    `<div class="multiples">${figures.join('')}</div>`,
    `<pre>${htmlText(renderHistoryMarkdown(history))}</pre></section>`,
    '</body></html>',
    '',
  ].join('\n');
}
