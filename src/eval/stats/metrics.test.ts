import { describe, expect, it } from 'vitest';
import { mean, nearestRank, passAtK, passHatK } from './metrics.js';

/** Exact answers by enumerating every k-subset of a concrete pass/fail sequence. */
function enumerate(outcomes: readonly boolean[], k: number): { any: number; all: number } {
  let subsets = 0;
  let any = 0;
  let all = 0;
  const walk = (start: number, picked: boolean[]): void => {
    if (picked.length === k) {
      subsets++;
      if (picked.some(Boolean)) any++;
      if (picked.every(Boolean)) all++;
      return;
    }
    for (let i = start; i < outcomes.length; i++) walk(i + 1, [...picked, outcomes[i] === true]);
  };
  walk(0, []);
  return { any: any / subsets, all: all / subsets };
}

describe('passAtK and passHatK', () => {
  it.each([
    [5, 2, 2, 0.7, 0.1],
    [4, 3, 2, 1, 0.5],
    [4, 0, 1, 0, 0],
    [4, 4, 4, 1, 1],
    [3, 2, 1, 2 / 3, 2 / 3],
  ])('match the vector n=%i c=%i k=%i', (n, c, k, atK, hatK) => {
    expect(passAtK(n, c, k)).toBeCloseTo(atK, 12);
    expect(passHatK(n, c, k)).toBeCloseTo(hatK, 12);
  });

  it('agree with a brute-force enumeration over all outcome sequences for n <= 8', () => {
    let checked = 0;
    for (let n = 1; n <= 8; n++) {
      for (let mask = 0; mask < 2 ** n; mask++) {
        const outcomes = Array.from({ length: n }, (_, i) => ((mask >> i) & 1) === 1);
        const c = outcomes.filter(Boolean).length;
        for (let k = 1; k <= n; k++) {
          const exact = enumerate(outcomes, k);
          expect(passAtK(n, c, k)).toBeCloseTo(exact.any, 12);
          expect(passHatK(n, c, k)).toBeCloseTo(exact.all, 12);
          checked++;
        }
      }
    }
    // sum over n = 1..8 of n * 2^n sequences-and-k pairs
    expect(checked).toBe(3586);
  });

  it('return undefined, not 0, when fewer than k trials were counted', () => {
    expect(passAtK(2, 2, 3)).toBeUndefined();
    expect(passHatK(2, 0, 3)).toBeUndefined();
    expect(passAtK(0, 0, 1)).toBeUndefined();
    expect(passHatK(0, 0, 1)).toBeUndefined();
  });

  it('never return negative zero when c < k', () => {
    expect(Object.is(passHatK(6, 1, 4), 0)).toBe(true);
  });

  it.each([
    [3, 4, 1, /c \(4\) must not exceed n \(3\)/],
    [-1, 0, 1, /n must not be negative/],
    [3, -1, 1, /c must not be negative/],
    [3, 1, 0, /k must be at least 1/],
    [3, 1.5, 1, /c must be an integer/],
    [Number.NaN, 1, 1, /n must be an integer/],
  ])('reject n=%s c=%s k=%s with a RangeError', (n, c, k, message) => {
    expect(() => passAtK(n, c, k)).toThrow(RangeError);
    expect(() => passHatK(n, c, k)).toThrow(message);
  });
});

describe('nearestRank', () => {
  it('picks the value at rank ceil(p * N)', () => {
    const values = [50, 10, 40, 20, 30];
    expect(nearestRank(values, 50)).toBe(30);
    expect(nearestRank(values, 95)).toBe(50);
    expect(nearestRank(values, 20)).toBe(10);
    expect(nearestRank([7], 95)).toBe(7);
  });

  it('is undefined without values and rejects a percentile outside (0, 100]', () => {
    expect(nearestRank([], 50)).toBeUndefined();
    expect(() => nearestRank([1], 0)).toThrow(RangeError);
  });
});

describe('mean', () => {
  it('averages values and is undefined for none', () => {
    expect(mean([1, 2, 6])).toBe(3);
    expect(mean([])).toBeUndefined();
  });
});
