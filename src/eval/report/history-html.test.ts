import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { wilsonInterval } from '../stats/wilson.js';
import { buildReport } from './build-report.js';
import { HISTORY_CSP, historySvg, renderHistoryHtml } from './history-html.js';
import { renderHistoryMarkdown } from './history-markdown.js';
import { buildHistory, type History, type HistoryPoint } from './history-model.js';
import { makeRecord } from './testing/records.js';

const HOSTILE = '<img src=x onerror=alert(1)>|`x`';

function point(id: string, passes: number, harness: string, subject = 'a commit'): HistoryPoint {
  const records = Array.from({ length: 10 }, (_, index) =>
    makeRecord({
      task: 'T1',
      variant: HOSTILE,
      trial: index + 1,
      outcome: index < passes ? 'passed' : 'failed',
    }),
  );
  const report = buildReport({
    records,
    trials: 10,
    floors: [],
    generatedAt: '2026-11-01T00:00:00Z',
  });
  return {
    id: id.repeat(40),
    label: id.repeat(7),
    date: '2026-11-01T00:00:00Z',
    subject,
    report,
    harness,
  };
}

function historyOf(points: HistoryPoint[]): History {
  return {
    source: 'reports/reference.json',
    points,
    skipped: [{ label: 'fff', why: HOSTILE }],
    series: buildHistory(points),
  };
}

describe('renderHistoryHtml', () => {
  const history = historyOf([
    point('a', 10, 'h1'),
    point('b', 10, 'h1'),
    point('c', 1, 'h2', 'x'.repeat(200)),
  ]);
  const html = renderHistoryHtml(history);

  it('is static: no script, its one stylesheet allowed by its hash, nothing loaded', () => {
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    const hash = createHash('sha256').update(style).digest('base64');
    expect(HISTORY_CSP).toBe(
      `default-src 'none'; style-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'`,
    );
    const tags = html.match(/<[a-z][^>]*>/gi) ?? [];
    expect(tags.length).toBeGreaterThan(10);
    // Attribute names only: a quoted value (an escaped name) is text.
    const names = tags.map((tag) => tag.replace(/"[^"]*"/g, '""'));
    expect(names.filter((tag) => /^<script|\s(on\w+|src|href|style)=/i.test(tag))).toEqual([]);
  });

  it('escapes every name the reports carry', () => {
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('plots each value at its height with its interval, and the mark at its commit', () => {
    const svg = historySvg(history, history.series[0]!);
    const circles = [...svg.matchAll(/<circle [^>]*cx="([\d.]+)" cy="([\d.]+)"/g)].map(
      ([, x, y]) => [Number(x), Number(y)],
    );
    // 96 px high, 14 above and 10 below: pass@1 1 sits at y 14, pass@1 0.1 at 14 + 0.9 * 72.
    expect(circles).toEqual([
      [26, 14],
      [139, 14],
      [252, 78.8],
    ]);
    const lower = wilsonInterval(10, 1)!.lower;
    expect(svg).toContain(`y2="${(14 + (1 - lower) * 72).toFixed(1)}"`);
    expect(svg).toMatch(
      /<text class="mark regressed" x="252\.0" [^>]*data-mark="regressed" data-commit="c{40}">▼/,
    );
  });
});

describe('renderHistoryMarkdown', () => {
  it('cuts a long commit subject and escapes markup in names and reasons', () => {
    const history = historyOf([point('a', 10, 'h1'), point('c', 1, 'h2', 'x'.repeat(200))]);
    const markdown = renderHistoryMarkdown(history);
    expect(markdown).toContain(`\`ccccccc\` 2026-11-01 ${'x'.repeat(59)}… |`);
    expect(markdown).not.toMatch(/<img|\|`x`/);
    expect(markdown).toContain('**regressed**');
  });
});
