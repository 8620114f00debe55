import { describe, expect, it } from 'vitest';
import { bootstrapMean, quantile } from './bootstrap.js';
import { pairedDifference, rateDifference } from './difference.js';
import { seededRandom } from './random.js';
import { wilsonInterval } from './wilson.js';

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

describe('pairedDifference (two-level bootstrap over tasks and their trials)', () => {
  const counts = (n: number, passed: number) => ({ n, passed });
  // See reference/compute-reference.py: the same mulberry32 stream, scipy's binomial CDF
  const pairs = [
    [counts(3, 0), counts(3, 3)],
    [counts(3, 3), counts(3, 3)],
    [counts(3, 0), counts(3, 3)],
    [counts(3, 1), counts(3, 3)],
    [counts(3, 0), counts(3, 2)],
    [counts(3, 2), counts(3, 3)],
  ] as const;

  it('matches the reference two-level bootstrap for seed 7', () => {
    const difference = pairedDifference(pairs, { seed: 7, resamples: 2000 });
    expect(difference?.value).toBeCloseTo(0.6111111111, 8);
    // wider than the pooled floor [0.3056, 0.7877] here, so the bootstrap's ends show
    expect(difference?.interval.lower).toBeCloseTo(0.2777777778, 8);
    expect(difference?.interval.upper).toBeCloseTo(0.8888888889, 8);
    expect(difference?.distinguishable).toBe(true);
  });

  it('is deterministic for a seed and moves with another seed', () => {
    const first = pairedDifference(pairs, { seed: 7 });
    expect(pairedDifference(pairs, { seed: 7 })).toEqual(first);
    const finer = [
      [counts(7, 2), counts(9, 6)],
      [counts(5, 1), counts(8, 8)],
      [counts(10, 3), counts(6, 4)],
    ] as const;
    expect(pairedDifference(finer, { seed: 1 })).not.toEqual(pairedDifference(finer, { seed: 2 }));
    const values = [0.1, 0.9, 0.4, 0.3, 0.75, 0.2, 0.55];
    expect(bootstrapMean(values, { seed: 1 })).not.toEqual(bootstrapMean(values, { seed: 2 }));
  });

  it('does not call 1/3 -> 2/3 on two tasks distinguishable: it holds rateDifference(6, 2, 6, 4)', () => {
    const difference = pairedDifference([
      [counts(3, 1), counts(3, 2)],
      [counts(3, 1), counts(3, 2)],
    ]);
    const pooled = rateDifference(6, 2, 6, 4)!;
    expect(difference?.value).toBeCloseTo(1 / 3, 12);
    expect(difference?.distinguishable).toBe(false);
    expect(difference?.interval.lower).toBeLessThanOrEqual(pooled.interval.lower);
    expect(difference?.interval.upper).toBeGreaterThanOrEqual(pooled.interval.upper);
  });

  it('gives 0/1 -> 1/1 on two tasks the pooled 0/2 -> 2/2 interval, not [1, 1]', () => {
    const difference = pairedDifference([
      [counts(1, 0), counts(1, 1)],
      [counts(1, 0), counts(1, 1)],
    ]);
    expect(difference?.interval.lower).toBeCloseTo(rateDifference(2, 0, 2, 2)!.interval.lower, 12);
    expect(difference?.interval.upper).toBe(1);
  });

  it('keeps the interval of pairs that all moved alike: no change is not a certain 0', () => {
    const difference = pairedDifference([
      [counts(3, 3), counts(3, 3)],
      [counts(3, 3), counts(3, 3)],
    ]);
    expect(difference?.value).toBe(0);
    // Newcombe of 6/6 -> 6/6: either rate may be as low as 0.61
    expect(difference?.interval.lower).toBeCloseTo(-(1 - wilsonInterval(6, 6)!.lower), 12);
    expect(difference?.interval.upper).toBeCloseTo(1 - wilsonInterval(6, 6)!.lower, 12);
    expect(difference?.distinguishable).toBe(false);
    expect(pairedDifference([])).toBeUndefined();
  });

  it('refuses counts no task can have, naming the task', () => {
    expect(() => pairedDifference([[counts(3, 1), counts(0, 0)]])).toThrow(
      /task 1 needs whole numbers 0 <= passed <= n with n >= 1, got passed=0 n=0/,
    );
    expect(() => pairedDifference([[counts(3, 4), counts(3, 1)]])).toThrow(RangeError);
  });
});

describe('bootstrapMean', () => {
  it('matches the reference bootstrap over values for seed 7', () => {
    const differences = [1, 0, 1, 2 / 3, 2 / 3, 1 / 3];
    const interval = bootstrapMean(differences, { seed: 7, resamples: 2000 });
    expect(interval?.lower).toBeCloseTo(0.3333333333, 8);
    expect(interval?.upper).toBeCloseTo(0.8888888889, 8);
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

describe('pairedDifference with the rates it took before', () => {
  it('names the shape it takes instead of failing inside', () => {
    expect(() => pairedDifference([[0, 1] as never, [1, 1] as never])).toThrow(
      'pairedDifference: pair 1 is not [{ n, passed }, { n, passed }] (before, after pass counts of one task); rates are no longer taken',
    );
  });
});
