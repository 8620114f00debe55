const MAX_CHANGED_LINES = 6;
const MAX_LINE_CHARS = 160;

/**
 * A short diff of two long strings: the changed middle (after the common leading and
 * trailing lines) with a few lines of context; `- ` recorded, `+ ` live. Long lines
 * are cut to a window around their first differing character.
 */
export function lineDiff(recorded: string, live: string, context = 2): string {
  const before = recorded.split('\n');
  const after = live.split('\n');
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > start && endAfter > start && before[endBefore - 1] === after[endAfter - 1]) {
    endBefore--;
    endAfter--;
  }
  const removed = before.slice(start, endBefore);
  const added = after.slice(start, endAfter);
  const column = firstDifference(removed[0] ?? '', added[0] ?? '');

  const lines: string[] = [];
  if (start > context) lines.push(`  @@ line ${start + 1}`);
  for (const line of before.slice(Math.max(0, start - context), start)) {
    lines.push(`  ${clip(line, column)}`);
  }
  lines.push(...capped(removed, '- ', column), ...capped(added, '+ ', column));
  for (const line of before.slice(endBefore, endBefore + context)) {
    lines.push(`  ${clip(line, column)}`);
  }
  return lines.join('\n');
}

function capped(lines: readonly string[], marker: string, column: number): string[] {
  const shown = lines.slice(0, MAX_CHANGED_LINES).map((line) => `${marker}${clip(line, column)}`);
  if (lines.length > MAX_CHANGED_LINES) {
    shown.push(`${marker}... (${lines.length - MAX_CHANGED_LINES} more lines)`);
  }
  return shown;
}

function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** Cut a long line to a window that shows the given column. */
function clip(line: string, column: number): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  const from = Math.max(0, Math.min(column - MAX_LINE_CHARS / 4, line.length - MAX_LINE_CHARS));
  const to = from + MAX_LINE_CHARS;
  return `${from > 0 ? '...' : ''}${line.slice(from, to)}${to < line.length ? '...' : ''}`;
}
