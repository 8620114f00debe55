import { escapeText } from '../../core/markdown-text.js';
import type { CostView } from './cost-view.js';
import { table as markdownTable } from './markdown-table.js';

/** Right-aligned columns of both cost tables: trials and the dollar figures. */
const RIGHT = [2, 3, 4, 5];
const ALIGN = 'llrrrr';

/** The cost section for the terminal, given its table and wrap (terminal.ts's fitTable, wrap). */
export function costTerminalSection(
  view: CostView | undefined,
  tools: {
    table: (head: string[], rows: string[][], right: number[]) => string;
    wrap: (text: string) => string[];
  },
): string {
  if (!view) return '';
  return [
    view.title,
    tools.table(view.head, view.rows, RIGHT),
    'Per variant',
    tools.table(view.variantHead, view.variants, RIGHT),
    ...view.lines.flatMap((line) => tools.wrap(line)),
  ].join('\n');
}

const cells = (rows: string[][]) => rows.map((row) => row.map(escapeText));

/** The cost section of the markdown report. */
export function costMarkdownSection(view: CostView | undefined): string {
  if (!view) return '';
  return [
    `## ${view.title}`,
    '',
    markdownTable(view.head, cells(view.rows), ALIGN),
    '',
    markdownTable(view.variantHead, cells(view.variants), ALIGN),
    '',
    ...view.lines
      .map((line) => (line.startsWith('  ') ? `- ${escapeText(line.trim())}` : escapeText(line)))
      .flatMap((line) => [line, '']),
  ]
    .join('\n')
    .trimEnd();
}

/**
 * The PR comment's costs: the run's two sentences (recorded, spent now) shown, the row and
 * variant tables folded. `short` keeps only the sentences, for a comment near its size limit.
 */
export function costPrCommentSection(view: CostView | undefined, short = false): string {
  if (!view) return '';
  const sentences = `<sub>${escapeText(view.lines.slice(0, 2).join(' '))}</sub>`;
  if (short) return sentences;
  return [
    sentences,
    '',
    '<details>',
    `<summary>${escapeText(view.title)}: per trial, row and variant</summary>`,
    '',
    markdownTable(view.head, cells(view.rows), ALIGN),
    '',
    markdownTable(view.variantHead, cells(view.variants), ALIGN),
    '',
    ...view.lines
      .slice(2)
      .map((line) => escapeText(line.trim()))
      .flatMap((line) => [line, '']),
    '</details>',
  ].join('\n');
}
