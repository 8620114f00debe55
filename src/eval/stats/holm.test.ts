import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../core/mulberry32.js';
import { atMost, dropPValue } from './drop-test.js';
import { holmAdjusted, type RowCounts, runLevelDrops } from './holm.js';

describe('holmAdjusted', () => {
  it('multiplies the k-th smallest p-value by m - k + 1, keeps the order, caps at 1', () => {
    expect(holmAdjusted([0.01, 0.04, 0.03])).toEqual([0.03, 0.06, 0.06]);
    expect(holmAdjusted([0.5, 0.01])).toEqual([0.5, 0.02]);
    expect(holmAdjusted([0.9, 0.8, 0.7])).toEqual([1, 1, 1]);
    expect(holmAdjusted([0.04])).toEqual([0.04]);
    expect(holmAdjusted([])).toEqual([]);
  });
});

/** `rows` noisy rows (true pass rates 0.2 to 0.8) whose two sides have the same rate: no change. */
function unchangedRun(random: () => number, n: number, rows = 20): RowCounts[] {
  const draw = (p: number) => {
    let passed = 0;
    for (let trial = 0; trial < n; trial++) if (random() < p) passed++;
    return { n, passed };
  };
  return Array.from({ length: rows }, (_, row) => {
    const p = 0.2 + (0.6 * row) / (rows - 1);
    return { before: draw(p), after: draw(p) };
  });
}

/** The share of `runs` simulated unchanged runs that the per-row and the run-level gates fail. */
function falseAlarms(n: number, runs: number, alpha: number) {
  const random = mulberry32(20261203 + n);
  let perRow = 0;
  let runLevel = 0;
  for (let run = 0; run < runs; run++) {
    const rows = unchangedRun(random, n);
    const rowAlarm = rows.some(
      ({ before, after }) =>
        after.passed < before.passed &&
        atMost(dropPValue(before.n, before.passed, after.n, after.passed), alpha),
    );
    if (rowAlarm) perRow++;
    if (runLevelDrops(rows, alpha).some((row) => row.significant)) runLevel++;
  }
  return { perRow: perRow / runs, runLevel: runLevel / runs };
}

// The break (issue 28): per row the false-alarm rate was at most 3.8%, but a run of 20 noisy
// rows with nothing changed failed 9.5% (n = 3) to 45% (n = 100) of the time.
describe('runLevelDrops: the false-alarm rate of a run with nothing changed', () => {
  const runs = 2000;
  const alpha = 0.05;
  // Three standard errors of a rate of alpha over `runs` simulated runs.
  const slack = 3 * Math.sqrt((alpha * (1 - alpha)) / runs);

  it.each([3, 30, 100])(
    'keeps a 20-row run at n = %i within alpha, where testing each row at alpha does not',
    (n) => {
      const { perRow, runLevel } = falseAlarms(n, runs, alpha);
      expect(runLevel).toBeLessThanOrEqual(alpha + slack);
      // What the gate did before: many rows, many chances for one false alarm.
      if (n >= 30) expect(perRow).toBeGreaterThan(2 * alpha);
      expect(perRow).toBeGreaterThan(runLevel);
    },
    60_000,
  );

  it('still finds a real collapse among 20 rows', () => {
    const rows: RowCounts[] = Array.from({ length: 20 }, () => ({
      before: { n: 30, passed: 27 },
      after: { n: 30, passed: 26 },
    }));
    rows[7] = { before: { n: 30, passed: 27 }, after: { n: 30, passed: 5 } };
    const decisions = runLevelDrops(rows, alpha);
    expect(decisions.map((row) => row.significant)).toEqual(rows.map((_, row) => row === 7));
    expect(decisions[7]!.adjustedPValue).toBeCloseTo(20 * decisions[7]!.pValue, 12);
  });
});

describe('runLevelDrops: only a fall is a drop', () => {
  it('never calls a rise significant, even at an alpha its one-sided p-value reaches', () => {
    // 1/3 -> 2/3: the hypergeometric P(X <= 2) of 3 draws from 3 passes among 6 is
    // 1 - C(3,3)C(3,0)/C(6,3) = 1 - 1/20 = 0.95 (scipy fisher_exact, alternative='less': 0.95).
    const rise = { before: { n: 3, passed: 1 }, after: { n: 3, passed: 2 } };
    const [decision] = runLevelDrops([rise], 0.95);
    expect(decision?.pValue).toBeCloseTo(0.95, 12);
    expect(decision?.significant).toBe(false);
    // The same p-value on a fall is a drop: the level is reached, only the direction differs.
    const fall = { before: { n: 3, passed: 3 }, after: { n: 3, passed: 2 } };
    expect(runLevelDrops([fall], 0.95)[0]?.significant).toBe(true);
  });
});
