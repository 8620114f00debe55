/** Terminal text: ANSI styles, visible width, word wrap (linear, however long a word). */
/** The width every line of terminal output stays within. */
export const TERMINAL_WIDTH = 100;

// Long assertion diffs belong in reports/latest.md, not in the terminal.
export const MAX_MESSAGE_LINES = 6;

export const ESCAPE = '\u001b';
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
 * `shell`, broken lines end in ` \\` so a wrapped command still pastes as one, and no word is
 * cut (a word wider than the line overflows it on a line of its own). Linear in the
 * text's length, however long a word is (a 1 MB word in an assertion message is cut, not
 * allowed to take the run down).
 */
export function wrap(
  text: string,
  options: { width?: number; indent?: string; shell?: boolean } = {},
): string[] {
  const width = options.width ?? TERMINAL_WIDTH;
  // An indent as wide as the line would leave no room for the text.
  const indent = (options.indent ?? '').length < width ? (options.indent ?? '') : '';
  const tail = options.shell ? ' \\' : '';
  const lines: string[] = [];
  let line = /^ */.exec(text)?.[0] ?? '';
  let lineWidth = line.length;
  let empty = true;
  for (const word of text.split(/\s+/).filter((part) => part !== '')) {
    const wordWidth = visibleLength(word);
    if (!empty && lineWidth + 1 + wordWidth + tail.length > width) {
      lines.push(line + tail);
      [line, lineWidth] = [indent, indent.length];
    } else if (!empty) {
      [line, lineWidth] = [`${line} `, lineWidth + 1];
    }
    [line, lineWidth] = [line + word, lineWidth + wordWidth];
    empty = false;
    // A single word wider than the line is cut, never allowed to overflow; but a shell
    // command's word (a case id) stays whole on its own line, so that the command pastes as one.
    if (lineWidth > width && !options.shell) {
      [line, lineWidth] = cutToWidth(line, width, indent, lines);
    }
  }
  if (!empty) lines.push(line);
  return lines;
}

/**
 * Cut `line` into pieces `width` columns wide (ANSI styles count for nothing and are never
 * split), pushing all but the last to `lines`; continuation pieces start with `indent`. One pass.
 */
function cutToWidth(
  line: string,
  width: number,
  indent: string,
  lines: string[],
): [rest: string, restWidth: number] {
  const tokens = new RegExp(`${ESCAPE}\\[[0-9;]*m|[^${ESCAPE}]+|${ESCAPE}`, 'g');
  let piece = '';
  let pieceWidth = 0;
  for (const [token] of line.matchAll(tokens)) {
    if (token.startsWith(ESCAPE) && token.length > 1) {
      piece += token;
      continue;
    }
    let at = 0;
    while (at < token.length) {
      if (pieceWidth >= width) {
        lines.push(piece);
        [piece, pieceWidth] = [indent, indent.length];
      }
      const take = Math.min(width - pieceWidth, token.length - at);
      piece += token.slice(at, at + take);
      pieceWidth += take;
      at += take;
    }
  }
  return [piece, pieceWidth];
}

/**
 * `wrap`, at most `maxLines` lines: a message or reason that would fill a screen ends in a line
 * saying how much more there is and where to read it.
 */
export function wrapClipped(
  text: string,
  options: { indent?: string } = {},
  maxLines = MAX_MESSAGE_LINES,
): string[] {
  const lines = wrap(text, options);
  if (lines.length <= maxLines) return lines;
  const more = lines.length - maxLines + 1;
  return [
    ...lines.slice(0, maxLines - 1),
    `${options.indent ?? ''}… (${more} more lines: all of it in reports/latest.md)`,
  ];
}

/**
 * A table cell whose words each fit `width` columns: a longer word (a task or variant name) is
 * broken onto the next lines of its cell, where cli-table3 would cut it with `…`. A word with a
 * colour code is left to the table.
 */
export function breakLongWords(cell: string, width: number): string {
  if (width < 1) return cell;
  return cell
    .split('\n')
    .map((line) =>
      line
        .split(' ')
        .map((word) => {
          if (word.length <= width || word.includes(ESCAPE)) return word;
          const chunks: string[] = [];
          for (let at = 0; at < word.length; at += width) chunks.push(word.slice(at, at + width));
          return chunks.join('\n');
        })
        .join(' '),
    )
    .join('\n');
}
