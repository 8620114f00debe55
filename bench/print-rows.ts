/** One line of a bench table: the figure is a median over rounds, `best` the best round. */
export interface Row {
  target: string;
  figure: string;
  best: string;
  goal: string;
  ratio: string;
  command: string;
}

/**
 * Print bench rows as an aligned table on stdout. `ratioHeader` names what the ratio
 * column compares with (an empty vitest run unless told otherwise).
 */
export function printRows(
  title: string,
  rows: readonly Row[],
  ratioHeader = 'vs empty vitest',
): void {
  printTable(title, rows, {
    target: 'target',
    figure: 'median',
    best: 'best round',
    goal: 'goal',
    ratio: ratioHeader,
    command: 'command',
  });
}

/**
 * Print a table on stdout: one column per key of `header`, in its order; the first and last
 * columns (a name, a command) are aligned left, the figures between them right.
 */
export function printTable<K extends string>(
  title: string,
  rows: ReadonlyArray<Readonly<Record<K, string>>>,
  header: Readonly<Record<K, string>>,
): void {
  const columns = Object.keys(header) as K[];
  const all = [header, ...rows];
  const widths = columns.map((column) => Math.max(...all.map((row) => row[column].length)));
  console.log(title);
  for (const row of all) {
    const cells = columns.map((column, index) =>
      index === 0 || index === columns.length - 1
        ? row[column].padEnd(widths[index]!)
        : row[column].padStart(widths[index]!),
    );
    console.log(`  ${cells.join('  ').trimEnd()}`);
  }
}
