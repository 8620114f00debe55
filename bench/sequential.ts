import { parseArgs } from 'node:util';
import { wilsonInterval } from '../src/eval/stats/wilson.js';
import { type CellOptions, type CellResult, simulateCell } from './sequential-cells.js';

/**
 * `npx tsx bench/sequential.ts [--runs 10000]`: the sequential rule's error rates and trials
 * over issue 32's grid (reference rates 0.5, 0.7, 0.9, 1.0; true drops 0, D/2, D, 2D; 1, 5 and
 * 20 rows), seeded, each cell against the fixed-n design with the same alpha and power. Prints
 * two markdown tables, the grid-average ratio and the no-change cells' saving.
 */
function options(argv: string[]): CellOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      runs: { type: 'string', default: '10000' },
      alpha: { type: 'string', default: '0.05' },
      beta: { type: 'string', default: '0.2' },
      delta: { type: 'string', default: '0.1' },
      'cap-factor': { type: 'string', default: '2' },
      seed: { type: 'string', default: '20261207' },
    },
  });
  const number = (name: keyof typeof values) => {
    const value = Number(values[name]);
    if (!Number.isFinite(value) || value <= 0) {
      throw new Error(`--${name} needs a positive number, got "${values[name]}"`);
    }
    return value;
  };
  return {
    runs: Math.round(number('runs')),
    alpha: number('alpha'),
    beta: number('beta'),
    delta: number('delta'),
    capFactor: number('cap-factor'),
    seed: Math.round(number('seed')),
  };
}

const percent = (share: number) => `${(100 * share).toFixed(1)}%`;

/** A Monte-Carlo share with its 95% Wilson interval. */
function share(count: number, of: number): string {
  const interval = wilsonInterval(of, count)!;
  return `${percent(count / of)} [${percent(interval.lower)}, ${percent(interval.upper)}]`;
}

function errorRow(result: CellResult, delta: number): string {
  const falseAlarm = result.drop <= 0 ? share(result.runsWithDrop, result.runs) : '—';
  const wrongNoDrop =
    result.drop >= delta - 1e-12 ? share(result.noDropRows, result.rowCount) : '—';
  const rowsDropped = result.drop > 0 ? percent(result.dropRows / result.rowCount) : '—';
  return `| ${result.rows} | ${result.p0.toFixed(1)} | ${result.drop.toFixed(2)} | ${falseAlarm} | ${wrongNoDrop} | ${rowsDropped} | ${percent(result.undecidedRows / result.rowCount)} |`;
}

function trialsRow(result: CellResult): string {
  const ratio = result.meanRounds / result.fixedN;
  return `| ${result.rows} | ${result.p0.toFixed(1)} | ${result.drop.toFixed(2)} | ${result.fixedN} | ${result.maxRounds} | ${result.meanRounds.toFixed(1)} | ${result.p95Rounds} | ${ratio.toFixed(2)} |`;
}

/** The sequential bench with these flags (`npm run bench -- --sequential [--runs N] ...`). */
export function runSequentialBench(argv: string[]): undefined {
  const settings = options(argv);
  const { alpha, beta, delta, runs, capFactor } = settings;
  const started = Date.now();
  const results: CellResult[] = [];
  let index = 0;
  for (const rows of [1, 5, 20]) {
    for (const p0 of [0.5, 0.7, 0.9, 1.0]) {
      for (const drop of [0, delta / 2, delta, 2 * delta]) {
        index++;
        results.push(
          simulateCell({ rows, p0, drop }, { ...settings, seed: settings.seed + index }),
        );
        console.error(`cell ${index}/48 done (${((Date.now() - started) / 1000).toFixed(0)} s)`);
      }
    }
  }
  const print = (line = '') => console.log(line);
  print(
    `Sequential rule (paired, mixture betting), alpha ${alpha} per run, beta ${beta}, D ${delta}; ${runs} seeded runs per cell; cap ${capFactor} x fixed n per row.`,
  );
  print();
  print(
    '| rows | p0 | true drop | run-level false alarms [95% MC] | wrong "no drop > D" [95% MC] | rows decided drop | undecided rows |',
  );
  print('| ---: | ---: | ---: | --- | --- | ---: | ---: |');
  for (const result of results) print(errorRow(result, delta));
  print();
  print('| rows | p0 | true drop | fixed n per side | cap | mean trials per row | p95 | ratio |');
  print('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const result of results) print(trialsRow(result));
  const ratios = results.map((result) => result.meanRounds / result.fixedN);
  const noChange = results.filter((result) => result.drop === 0);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  print();
  print(`Grid-average ratio (mean trials / fixed n): ${mean(ratios).toFixed(3)} (target <= 0.60)`);
  print(
    `No-change cells: ratio ${mean(noChange.map((result) => result.meanRounds / result.fixedN)).toFixed(3)}, a saving of ${percent(1 - mean(noChange.map((result) => result.meanRounds / result.fixedN)))}`,
  );
  print(`(${((Date.now() - started) / 1000).toFixed(0)} s)`);
  return undefined;
}

// Run directly: npx tsx bench/sequential.ts [--runs N].
if (process.argv[1]?.endsWith('sequential.ts')) runSequentialBench(process.argv.slice(2));
