import { mulberry32 } from '../src/core/mulberry32.js';
import { fixedTrials } from '../src/eval/stats/sequential-forecast.js';
import { runLevel } from '../src/eval/stats/sequential-run.js';
import { ternaryBoundaries, walkTernary } from '../src/eval/stats/sequential-tables.js';

/** One cell of the grid: rows per run, the reference's rate and the true drop of every row. */
export interface Cell {
  rows: number;
  p0: number;
  drop: number;
}

export interface CellOptions {
  alpha: number;
  beta: number;
  delta: number;
  runs: number;
  /** The cap per row, as a multiple of the fixed-n figure. */
  capFactor: number;
  seed: number;
}

/** What a cell measured over its runs. */
export interface CellResult extends Cell {
  fixedN: number;
  maxRounds: number;
  runs: number;
  /** Runs with one or more rows decided "drop" (a false alarm when drop = 0). */
  runsWithDrop: number;
  /** Rows decided "no drop > delta" (wrong when drop >= delta), and all rows. */
  noDropRows: number;
  /** Rows decided "drop" (the per-row power when drop > 0). */
  dropRows: number;
  undecidedRows: number;
  rowCount: number;
  meanRounds: number;
  p95Rounds: number;
}

/**
 * Simulate one cell: `runs` seeded runs of `rows` independent paired rows, each round one trial
 * per side at rates p0 and p0 - drop, every row walked through the rule's boundary tables (the
 * fast path the unit tests check against decidePaired) until its first crossing or the cap,
 * then the run-level Holm step (runLevel, the library's own).
 */
export function simulateCell(cell: Cell, options: CellOptions): CellResult {
  const { alpha, beta, delta, runs, capFactor } = options;
  const level = alpha / cell.rows;
  const fixedN = fixedTrials(cell.p0, cell.p0 - delta, level, beta) ?? 10_000;
  const maxRounds = Math.ceil(capFactor * fixedN);
  const tables = ternaryBoundaries({ dropLevel: level, beta, delta, maxRounds });
  const random = mulberry32(options.seed);
  const [before, after] = [cell.p0, cell.p0 - cell.drop];
  const [pUp, pDown] = [before * (1 - after), (1 - before) * after];
  const next = () => {
    const u = random();
    return u < pUp ? 1 : u < pUp + pDown ? -1 : 0;
  };
  const rounds = new Int32Array(runs * cell.rows);
  let [runsWithDrop, noDropRows, dropRows, undecidedRows, total] = [0, 0, 0, 0, 0];
  for (let run = 0; run < runs; run++) {
    const outcomes = Array.from({ length: cell.rows }, () => walkTernary(tables, next));
    const decided = runLevel(outcomes, alpha);
    if (decided.some((row) => row.state === 'drop')) runsWithDrop++;
    decided.forEach((row, index) => {
      if (row.state === 'no-drop') noDropRows++;
      if (row.state === 'drop') dropRows++;
      if (row.state === 'undecided') undecidedRows++;
      rounds[run * cell.rows + index] = row.rounds;
      total += row.rounds;
    });
  }
  rounds.sort();
  return {
    ...cell,
    fixedN,
    maxRounds,
    runs,
    runsWithDrop,
    noDropRows,
    dropRows,
    undecidedRows,
    rowCount: rounds.length,
    meanRounds: total / rounds.length,
    p95Rounds: rounds[Math.ceil(0.95 * rounds.length) - 1]!,
  };
}
