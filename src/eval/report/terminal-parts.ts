import Table from 'cli-table3';

/** The width every line of terminal output stays within. */
export const TERMINAL_WIDTH = 100;

const ESCAPE = '\u001b';
const ANSI = new RegExp(`${ESCAPE}\\[[0-9;]*m`, 'g');
const CODES = { bold: 1, red: 31, green: 32, yellow: 33, cyan: 36 } as const;

/** Wraps `text` in an ANSI style when `enabled`; plain text otherwise. */
export function paint(style: keyof typeof CODES, text: string, enabled: boolean): string {
  return enabled ? `${ESCAPE}[${CODES[style]}m${text}${ESCAPE}[0m` : text;
}

export function visibleLength(text: string): number {
  return text.replace(ANSI, '').length;
}

/**
 * Greedy word wrap to `width` columns, continuation lines indented by `indent`. With
 * `shell`, broken lines end in ` \` so a wrapped command still pastes as one.
 */
export function wrap(
  text: string,
  options: { width?: number; indent?: string; shell?: boolean } = {},
): string[] {
  const width = options.width ?? TERMINAL_WIDTH;
  const indent = options.indent ?? '';
  const tail = options.shell ? ' \\' : '';
  const lines: string[] = [];
  let line = /^ */.exec(text)?.[0] ?? '';
  let empty = true;
  for (const word of text.split(/\s+/).filter((part) => part !== '')) {
    const candidate = empty ? line + word : `${line} ${word}`;
    if (!empty && visibleLength(candidate) + tail.length > width) {
      lines.push(line + tail);
      line = indent + word;
    } else {
      line = candidate;
    }
    empty = false;
    // A single word wider than the line is cut, never allowed to overflow.
    while (visibleLength(line) > width) {
      lines.push(line.slice(0, width));
      line = indent + line.slice(width);
    }
  }
  if (!empty) lines.push(line);
  return lines;
}

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
  for (const row of rows) table.push([...row]);
  return table.toString();
}
