import { describe, expect, it } from 'vitest';
import { bootstrapStatistic, cohenKappa, countsOf, fleissKappa, flipRate } from './agreement.js';

const pairs = (counts: Record<string, number>) =>
  Object.entries(counts).flatMap(([key, count]) => {
    const [left, right] = key.split('/') as [string, string];
    return Array.from({ length: count }, () => [left, right] as const);
  });

describe('cohenKappa', () => {
  it('matches the textbook examples', () => {
    // Wikipedia, "Cohen's kappa": 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no -> 0.4.
    expect(cohenKappa(pairs({ 'y/y': 20, 'y/n': 5, 'n/y': 10, 'n/n': 15 }))).toBeCloseTo(0.4, 10);
    // po 0.60, pe 0.60 x 0.70 + 0.40 x 0.30 = 0.54 -> 0.06 / 0.46.
    expect(cohenKappa(pairs({ 'y/y': 45, 'y/n': 15, 'n/y': 25, 'n/n': 15 }))).toBeCloseTo(
      0.06 / 0.46,
      10,
    );
  });

  it('is 1 for full agreement, below 0 for systematic disagreement, null when chance agrees fully', () => {
    expect(cohenKappa(pairs({ 'y/y': 3, 'n/n': 2 }))).toBe(1);
    expect(cohenKappa(pairs({ 'y/n': 3, 'n/y': 3 }))).toBe(-1);
    expect(cohenKappa(pairs({ 'pass/pass': 4 }))).toBeNull();
    expect(cohenKappa([])).toBeNull();
  });
});

describe('fleissKappa', () => {
  it("matches Fleiss' worked example (10 subjects, 14 raters, 5 categories: 0.210)", () => {
    const table = [
      [0, 0, 0, 0, 14],
      [0, 2, 6, 4, 2],
      [0, 0, 3, 5, 6],
      [0, 3, 9, 2, 0],
      [2, 2, 8, 1, 1],
      [7, 7, 0, 0, 0],
      [3, 2, 6, 3, 0],
      [2, 5, 3, 2, 2],
      [6, 5, 2, 1, 0],
      [0, 2, 2, 3, 7],
    ];
    expect(fleissKappa(table)).toBeCloseTo(0.20993, 4);
  });

  it('is 1 for unanimous subjects that differ, null with no variation, and refuses ragged tables', () => {
    expect(fleissKappa([countsOf(['pass', 'pass', 'pass'], ['pass', 'fail']), [0, 3]])).toBe(1);
    expect(
      fleissKappa([
        [3, 0],
        [3, 0],
      ]),
    ).toBeNull();
    expect(() =>
      fleissKappa([
        [3, 0],
        [1, 1],
      ]),
    ).toThrow(RangeError);
    expect(() => fleissKappa([[1, 0]])).toThrow(RangeError);
  });
});

describe('flipRate', () => {
  it('is the share of repeated groups that did not all agree; single labels do not count', () => {
    expect(flipRate([['pass', 'pass', 'fail'], ['fail', 'fail'], ['pass'], ['pass', 'pass']])).toBe(
      1 / 3,
    );
    expect(flipRate([['pass'], ['fail']])).toBeNull();
  });
});

describe('bootstrapStatistic', () => {
  it('is seeded (the same interval twice), holds the estimate, and says nothing below 10 subjects', () => {
    const subjects = pairs({ 'y/y': 8, 'y/n': 2, 'n/y': 1, 'n/n': 9 });
    const first = bootstrapStatistic(subjects, cohenKappa);
    expect(first).toEqual(bootstrapStatistic(subjects, cohenKappa));
    const estimate = cohenKappa(subjects)!;
    expect(first!.lower).toBeLessThan(estimate);
    expect(first!.upper).toBeGreaterThan(estimate);
    expect(bootstrapStatistic(subjects.slice(0, 9), cohenKappa)).toBeNull();
    // Six trials that all agree would resample to [1, 1]: certainty out of almost nothing.
    expect(bootstrapStatistic(pairs({ 'y/y': 3, 'n/n': 3 }), cohenKappa)).toBeNull();
    expect(
      bootstrapStatistic(pairs({ 'y/y': 3, 'n/n': 3 }), cohenKappa, { minSubjects: 2 }),
    ).toEqual({
      lower: 1,
      upper: 1,
    });
  });

  it('is null when most resamples have no value (trials all agreeing on pass)', () => {
    expect(bootstrapStatistic(pairs({ 'pass/pass': 30 }), cohenKappa)).toBeNull();
  });
});
