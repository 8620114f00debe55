import { describe, expect, it } from 'vitest';
import { normalQuantile, twoSidedZ } from './interval.js';
import { passKIntervals, wilsonInterval, wilsonScore } from './wilson.js';

// scipy.stats.binomtest(c, n).proportion_ci(0.95, method='wilson'); see reference/compute-reference.py
const WILSON: Array<[n: number, c: number, lower: number, upper: number]> = [
  [3, 0, 0.0, 0.5614970318],
  [3, 3, 0.4385029682, 1.0],
  [5, 1, 0.0362241086, 0.6244653702],
  [100, 50, 0.4038315304, 0.5961684696],
  [3, 2, 0.2076596008, 0.9385080553],
  [30, 27, 0.7437891742, 0.9654001113],
];

describe('wilsonInterval', () => {
  it.each(WILSON)('n=%i c=%i matches scipy', (n, c, lower, upper) => {
    const interval = wilsonInterval(n, c);
    expect(interval?.lower).toBeCloseTo(lower, 8);
    expect(interval?.upper).toBeCloseTo(upper, 8);
  });

  it('is exactly 0 or 1 at the edges and undefined with no trials', () => {
    expect(wilsonInterval(3, 0)?.lower).toBe(0);
    expect(wilsonInterval(3, 3)?.upper).toBe(1);
    expect(wilsonInterval(0, 0)).toBeUndefined();
  });

  it('refuses impossible counts', () => {
    expect(() => wilsonInterval(3, 4)).toThrow(/c <= n/);
    expect(() => wilsonInterval(2.5, 1)).toThrow(RangeError);
  });
});

describe('wilsonScore', () => {
  it('is wilsonInterval at whole counts and narrows as the effective n grows', () => {
    expect(wilsonScore(2 / 3, 3)).toEqual(wilsonInterval(3, 2));
    expect(wilsonScore(0, 9)).toEqual(wilsonInterval(9, 0));
    const between = wilsonScore(0.5, 11.7);
    expect(between.lower).toBeGreaterThan(wilsonInterval(10, 5)!.lower);
    expect(between.lower).toBeLessThan(wilsonInterval(12, 6)!.lower);
  });

  it('refuses a rate outside [0, 1] or no trials', () => {
    expect(() => wilsonScore(1.2, 3)).toThrow(/0 <= rate <= 1 and n > 0, got rate=1.2 n=3/);
    expect(() => wilsonScore(0.5, 0)).toThrow(RangeError);
    expect(() => wilsonScore(Number.NaN, 3)).toThrow(RangeError);
  });
});

describe('normalQuantile', () => {
  it('gives the familiar z values', () => {
    expect(twoSidedZ(0.95)).toBeCloseTo(1.959963985, 8);
    expect(normalQuantile(0.01)).toBeCloseTo(-2.326347874, 8);
    expect(normalQuantile(0.5)).toBeCloseTo(0, 12);
  });
});

describe('passKIntervals', () => {
  it('maps the Wilson ends through p^k and 1 - (1 - p)^k', () => {
    const intervals = passKIntervals(3, 2, 2);
    expect(intervals?.passHatK.lower).toBeCloseTo(0.2076596008 ** 2, 8);
    expect(intervals?.passHatK.upper).toBeCloseTo(0.9385080553 ** 2, 8);
    expect(intervals?.passAtK.lower).toBeCloseTo(1 - (1 - 0.2076596008) ** 2, 8);
    // pass@2 of 2 in 3 is exactly 1 (every pair holds a pass): the upper end widens to it.
    expect(intervals?.passAtK.upper).toBe(1);
    expect(passKIntervals(5, 1, 2)?.passAtK.upper).toBeCloseTo(1 - (1 - 0.6244653702) ** 2, 8);
  });

  it('widens to hold the unbiased estimate when it falls outside (2 of 3: pass^3 = 0)', () => {
    const intervals = passKIntervals(3, 2, 3);
    expect(intervals?.passHatK.lower).toBe(0);
    expect(intervals?.passHatK.upper).toBeCloseTo(0.9385080553 ** 3, 8);
    expect(intervals?.passAtK.upper).toBe(1);
  });

  it('is undefined where the estimator is (n < k)', () => {
    expect(passKIntervals(2, 2, 3)).toBeUndefined();
  });
});
