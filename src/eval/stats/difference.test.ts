import { describe, expect, it } from 'vitest';
import { bootstrapMean, quantile } from './bootstrap.js';
import { pairedDifference, rateDifference } from './difference.js';
import { seededRandom } from './random.js';

// Newcombe (1998) method 10 written out over scipy's Wilson ends; see reference/compute-reference.py
const NEWCOMBE: Array<[number, number, number, number, number, number, number]> = [
  [3, 0, 3, 3, 1.0, 0.2059232825, 1.0],
  [3, 3, 3, 2, -0.3333333333, -0.7923403992, 0.2905069164],
  [100, 50, 100, 60, 0.1, -0.0373021032, 0.2321230542],
  [5, 1, 3, 3, 0.8, 0.096118073, 0.9637758914],
  [30, 27, 30, 20, -0.2333333333, -0.4237808963, -0.0228794944],
];

describe('rateDifference (unpaired)', () => {
  it.each(NEWCOMBE)(
    '%i/%i -> %i/%i matches the reference',
    (n1, c1, n2, c2, value, lower, upper) => {
      const difference = rateDifference(n1, c1, n2, c2);
      expect(difference?.value).toBeCloseTo(value, 8);
      expect(difference?.interval.lower).toBeCloseTo(lower, 8);
      expect(difference?.interval.upper).toBeCloseTo(upper, 8);
    },
  );

  it('is distinguishable only when the interval leaves out 0', () => {
    expect(rateDifference(3, 0, 3, 3)?.distinguishable).toBe(true);
    expect(rateDifference(3, 3, 3, 2)?.distinguishable).toBe(false);
    expect(rateDifference(30, 27, 30, 20)?.distinguishable).toBe(true);
    expect(rateDifference(0, 0, 3, 3)).toBeUndefined();
  });
});

describe('pairedDifference (bootstrap over pairs)', () => {
  // Same mulberry32 stream in Python, numpy percentile; see reference/compute-reference.py
  const pairs: Array<[number, number]> = [
    [0, 1],
    [1, 1],
    [0, 1],
    [1 / 3, 1],
    [0, 2 / 3],
    [2 / 3, 1],
  ];

  it('matches the reference bootstrap for seed 7', () => {
    const difference = pairedDifference(pairs, { seed: 7, resamples: 2000 });
    expect(difference?.value).toBeCloseTo(0.6111111111, 8);
    expect(difference?.interval.lower).toBeCloseTo(0.3333333333, 8);
    expect(difference?.interval.upper).toBeCloseTo(0.8888888889, 8);
    expect(difference?.distinguishable).toBe(true);
  });

  it('is deterministic for a seed and moves with another seed', () => {
    const first = pairedDifference(pairs, { seed: 7 });
    expect(pairedDifference(pairs, { seed: 7 })).toEqual(first);
    const values = [0.1, 0.9, 0.4, 0.3, 0.75, 0.2, 0.55];
    expect(bootstrapMean(values, { seed: 1 })).not.toEqual(bootstrapMean(values, { seed: 2 }));
  });

  it('collapses to the point when every pair moved by the same amount', () => {
    const difference = pairedDifference([
      [0.5, 0.5],
      [1, 1],
    ]);
    expect(difference).toEqual({
      value: 0,
      interval: { lower: 0, upper: 0 },
      distinguishable: false,
    });
    expect(pairedDifference([])).toBeUndefined();
  });
});

describe('seededRandom and quantile', () => {
  it('replays the reference mulberry32 stream', () => {
    const random = seededRandom(1);
    expect([random(), random(), random()].map((x) => x.toFixed(10))).toEqual([
      '0.6270739406',
      '0.0027357212',
      '0.5274470400',
    ]);
  });

  it('interpolates like numpy.percentile', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([1, 2, 3, 4], 0.025)).toBeCloseTo(1.075, 12);
  });
});
