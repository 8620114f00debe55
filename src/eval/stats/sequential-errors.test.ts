import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../core/mulberry32.js';
import { decidePaired } from './sequential.js';
import { roundsSummary, sequentialPaths } from './sequential-paths.js';
import { runLevel } from './sequential-run.js';
import { ternaryBoundaries, walkTernary } from './sequential-tables.js';

const [alpha, beta, delta] = [0.05, 0.2, 0.1];

/** Every sequence of n rounds in {-1, 0, 1}, with its probability at rates before / after. */
function* allPaths(n: number, before: number, after: number) {
  const p = { 1: before * (1 - after), [-1]: (1 - before) * after, 0: 0 } as Record<number, number>;
  p[0] = 1 - p[1]! - p[-1]!;
  for (let code = 0; code < 3 ** n; code++) {
    const path: Array<-1 | 0 | 1> = [];
    let [rest, probability] = [code, 1];
    for (let i = 0; i < n; i++) {
      const x = ((rest % 3) - 1) as -1 | 0 | 1;
      rest = Math.floor(rest / 3);
      path.push(x);
      probability *= p[x]!;
    }
    yield { path, probability };
  }
}

const replay = (path: ReadonlyArray<-1 | 0 | 1>) => {
  let i = 0;
  return () => path[i++]!;
};

describe('the paired rule at small n, every outcome path enumerated', () => {
  it('walks the tables exactly as decidePaired decides (seeded paths of 30 rounds, 1 and 20 rows)', () => {
    const random = mulberry32(3203);
    const seen = new Set<string>();
    for (const rows of [1, 20]) {
      const tables = ternaryBoundaries({ dropLevel: alpha / rows, beta, delta, maxRounds: 30 });
      for (let run = 0; run < 16; run++) {
        const [before, after] = run % 2 === 0 ? [1, 0.3] : [0.97, 0.97];
        const path = Array.from(
          { length: 30 },
          () => ((random() < before ? 1 : 0) - (random() < after ? 1 : 0)) as -1 | 0 | 1,
        );
        const walked = walkTernary(tables, replay(path));
        const decided = decidePaired({ alpha, beta, delta, rows, rounds: path });
        expect([walked.state, walked.rounds]).toEqual([decided.state, decided.rounds]);
        expect(walked.pValue).toBeCloseTo(decided.pValue, 12);
        seen.add(walked.state);
      }
    }
    expect([...seen].sort()).toEqual(['drop', 'no-drop', 'undecided']);
  });

  it('gives the dynamic programme the probabilities a brute-force sum over 3^8 paths gives', () => {
    const tables = ternaryBoundaries({ dropLevel: alpha, beta, delta, maxRounds: 8 });
    const brute = { drop: 0, noDrop: 0 };
    for (const { path, probability } of allPaths(8, 1, 0.2)) {
      const { state } = walkTernary(tables, replay(path));
      if (state === 'drop') brute.drop += probability;
      if (state === 'no-drop') brute.noDrop += probability;
    }
    const exact = roundsSummary(sequentialPaths(tables, 1, 0.2));
    expect(exact.drop).toBeCloseTo(brute.drop, 12);
    expect(exact.noDrop).toBeCloseTo(brute.noDrop, 12);
    expect(brute.drop).toBeGreaterThan(0.1);
  });

  it('keeps P(drop | no drop) <= alpha / rows and P(no drop > D | drop >= D) <= beta for n = 3 to 10', () => {
    const rates = [0, 0.1, 0.3, 0.5, 0.7, 0.9, 0.95, 1];
    let [worstDrop, worstNoDrop] = [0, 0];
    for (const rows of [1, 20]) {
      for (let n = 3; n <= 10; n++) {
        const tables = ternaryBoundaries({ dropLevel: alpha / rows, beta, delta, maxRounds: n });
        for (const before of rates) {
          for (const after of rates) {
            const exact = roundsSummary(sequentialPaths(tables, before, after));
            if (after >= before) worstDrop = Math.max(worstDrop, exact.drop * rows);
            if (before - after >= delta - 1e-12) worstNoDrop = Math.max(worstNoDrop, exact.noDrop);
          }
        }
      }
    }
    expect(worstDrop).toBeLessThanOrEqual(alpha);
    expect(worstNoDrop).toBeLessThanOrEqual(beta);
    // Conservative at this n (worst 0.0013 x rows and 0.032), yet not vacuous.
    expect(worstDrop).toBeGreaterThan(0);
    expect(worstNoDrop).toBeGreaterThan(0.01);
  });
});

/** The share of `runs` seeded runs of `rows` rows (rates `rate(row)` -> minus `drop`) ending so. */
function simulate(options: {
  runs: number;
  rows: number;
  maxRounds: number;
  dropLevel: number;
  noDropLevel: number;
  rate: (row: number) => number;
  drop: number;
  seed: number;
}) {
  const { runs, rows, maxRounds, dropLevel, noDropLevel, rate, drop } = options;
  const tables = ternaryBoundaries({ dropLevel, beta: noDropLevel, delta, maxRounds });
  const random = mulberry32(options.seed);
  let [anyDrop, noDrops, rowCount] = [0, 0, 0];
  for (let run = 0; run < runs; run++) {
    const outcomes = Array.from({ length: rows }, (_, row) => {
      const [before, after] = [rate(row), rate(row) - drop];
      return walkTernary(
        tables,
        () => ((random() < before ? 1 : 0) - (random() < after ? 1 : 0)) as -1 | 0 | 1,
      );
    });
    const decided = runLevel(outcomes, alpha);
    if (decided.some((row) => row.state === 'drop')) anyDrop++;
    noDrops += decided.filter((row) => row.state === 'no-drop').length;
    rowCount += rows;
  }
  return { runLevelDrop: anyDrop / runs, noDrop: noDrops / rowCount };
}

const margin = (p: number, n: number) => 3 * Math.sqrt((p * (1 - p)) / n);

describe('the paired rule by seeded simulation', () => {
  const unchanged = { runs: 600, rows: 20, maxRounds: 24, drop: 0, noDropLevel: beta, seed: 3201 };
  const spread = (row: number) => 0.2 + (0.6 * row) / 19;

  it('holds the false-alarm rate of a 20-row run with nothing changed at alpha', () => {
    const { runLevelDrop } = simulate({ ...unchanged, dropLevel: alpha / 20, rate: spread });
    expect(runLevelDrop).toBeLessThanOrEqual(alpha + margin(alpha, unchanged.runs));
  });

  it('would not with each row tested at alpha (the guard this test stands for)', () => {
    const { runLevelDrop } = simulate({ ...unchanged, dropLevel: alpha, rate: spread });
    expect(runLevelDrop).toBeGreaterThan(alpha + margin(alpha, unchanged.runs));
  });

  const dropped = { runs: 500, rows: 4, maxRounds: 100, drop: delta, dropLevel: alpha, seed: 3202 };
  const rates = (row: number) => [0.5, 0.7, 0.9, 1][row]!;

  it('says "no drop > D" of rows that dropped by D at most beta of the time', () => {
    const { noDrop } = simulate({ ...dropped, noDropLevel: beta, rate: rates });
    expect(noDrop).toBeLessThanOrEqual(beta + margin(beta, dropped.runs * 4));
    expect(noDrop).toBeGreaterThan(0.05);
  });

  it('would not if "no drop" were said as soon as the capital rose (threshold 1, not 1 / beta)', () => {
    const { noDrop } = simulate({ ...dropped, noDropLevel: 1, rate: rates });
    expect(noDrop).toBeGreaterThan(beta + margin(beta, dropped.runs * 4));
  });
});
