import { formatRate } from './format.js';

/** Text safe inside a GFM table cell or an HTML summary. */
export function escapeText(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n/g, ' ');
}

/** A run of backticks longer than any inside the text, so the text cannot close it. */
function fenceFor(text: string, minimum: number): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  return '`'.repeat(Math.max(minimum, longest + 1));
}

export function inlineCode(text: string): string {
  const flat = text.replace(/\r?\n/g, ' ');
  const fence = fenceFor(flat, 1);
  // CommonMark strips one space each side, which is only needed next to a backtick.
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

export function codeBlock(text: string, language = ''): string {
  const fence = fenceFor(text, 3);
  return `${fence}${language}\n${text}\n${fence}`;
}

/** A GFM table; `align` has one letter per column, l or r (default: all left). */
export function table(
  head: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  align = '',
): string {
  const rule = head.map((_, index) => (align[index] === 'r' ? '---:' : '---'));
  return [head, rule, ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
}

export function details(summary: string, body: readonly string[]): string {
  return ['<details>', `<summary>${summary}</summary>`, '', ...body, '', '</details>'].join('\n');
}

/** An `xychart-beta` bar chart; bars without a value are left out. */
export function barChart(options: {
  title: string;
  yLabel: string;
  bars: ReadonlyArray<{ label: string; value: number | null }>;
}): string {
  const quote = (text: string) => `"${text.replace(/"/g, "'")}"`;
  const bars = options.bars.filter((bar) => bar.value !== null);
  return [
    '```mermaid',
    'xychart-beta',
    `  title ${quote(options.title)}`,
    `  x-axis [${bars.map((bar) => quote(bar.label)).join(', ')}]`,
    `  y-axis ${quote(options.yLabel)} 0 --> 1`,
    `  bar [${bars.map((bar) => formatRate(bar.value)).join(', ')}]`,
    '```',
  ].join('\n');
}
