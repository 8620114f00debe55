import Table from 'cli-table3';
import { breakLongWords, paint, TERMINAL_WIDTH, visibleLength } from './terminal-wrap.js';

/**
 * A cli-table3 table that fits `width`: the widest columns shrink (their cells wrap)
 * until the borders and padding fit.
 */
export function fitTable(
  head: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  options: { color: boolean; right?: readonly number[]; width?: number },
): string {
  const width = options.width ?? TERMINAL_WIDTH;
  const widths = head.map(
    (title, index) =>
      Math.max(visibleLength(title), ...rows.map((row) => visibleLength(row[index] ?? ''))) + 2,
  );
  const borders = head.length + 1;
  while (widths.reduce((sum, column) => sum + column, 0) + borders > width) {
    const widest = widths.indexOf(Math.max(...widths));
    if ((widths[widest] ?? 0) <= 6) break;
    widths[widest] = (widths[widest] ?? 0) - 1;
  }
  const table = new Table({
    head: head.map((title) => paint('cyan', title, options.color)),
    colWidths: widths,
    colAligns: head.map((_, index) => (options.right?.includes(index) ? 'right' : 'left')),
    wordWrap: true,
    style: { head: [], border: [], compact: true },
  });
  // cli-table3 cuts a word wider than its column with `…`: names are broken instead.
  for (const row of rows) {
    table.push(row.map((cell, index) => breakLongWords(cell, (widths[index] ?? 0) - 2)));
  }
  return table.toString();
}
