/** A GitHub markdown table; `align` holds 'r' for each right-aligned column. */
export function table(
  head: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  align = '',
): string {
  const rule = head.map((_, index) => (align[index] === 'r' ? '---:' : '---'));
  return [head, rule, ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
}
