import { describe, expect, it } from 'vitest';
import { dropPValue } from './drop-test.js';

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
