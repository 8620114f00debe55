import { describe, expect, it } from 'vitest';
import { dropPValue, testDrop } from './drop-test.js';

// scipy.stats.fisher_exact([[cAfter, nAfter - cAfter], [cBefore, nBefore - cBefore]], alternative='less')
const FISHER: Array<[number, number, number, number, number]> = [
  [3, 3, 3, 2, 0.5],
  [3, 3, 3, 0, 0.05],
  [30, 27, 30, 20, 0.0287331367],
  [100, 50, 100, 40, 0.1003538001],
  [5, 5, 3, 1, 0.1071428571],
];

describe('dropPValue', () => {
  it.each(FISHER)('%i/%i -> %i/%i matches scipy', (nBefore, cBefore, nAfter, cAfter, p) => {
    expect(dropPValue(nBefore, cBefore, nAfter, cAfter)).toBeCloseTo(p, 9);
  });

  it('is 1 when nothing dropped', () => {
    expect(dropPValue(3, 2, 3, 3)).toBeCloseTo(1, 12);
  });
});

describe('testDrop', () => {
  it('calls 3/3 -> 2/3 noise and says 11 trials per side would settle it', () => {
    const result = testDrop(3, 3, 3, 2, 0.05);
    expect(result.pValue).toBeCloseTo(0.5, 12);
    expect(result).toMatchObject({ significant: false, trialsToSettle: 11 });
  });

  it('calls 3/3 -> 0/3 significant at 0.05 (p is exactly 0.05) but not at 0.01', () => {
    expect(testDrop(3, 3, 3, 0, 0.05).significant).toBe(true);
    expect(testDrop(3, 3, 3, 0, 0.01).significant).toBe(false);
  });

  it('calls 27/30 -> 20/30 significant', () => {
    expect(testDrop(30, 27, 30, 20, 0.05)).toMatchObject({ significant: true });
  });

  it('gives no trial count for a drop too small to settle within 1000 trials', () => {
    const result = testDrop(1000, 500, 1000, 499, 0.05);
    expect(result.significant).toBe(false);
    expect(result.trialsToSettle).toBeUndefined();
  });
});
