import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../core/mulberry32.js';
import { longestCommonSubsequence, maximumMatching } from './matching.js';

/** A random fits matrix: `left` x `right`, each pair fitting with chance `density`. */
function randomFits(random: () => number, left: number, right: number, density: number) {
  const matrix = Array.from({ length: left }, () =>
    Array.from({ length: right }, () => random() < density),
  );
  return (i: number, j: number) => matrix[i]![j]!;
}

/** The largest matching by trying every choice for each left item (exponential, small n only). */
function bruteMatching(left: number, right: number, fits: (i: number, j: number) => boolean) {
  const best = (i: number, used: Set<number>): number => {
    if (i === left) return 0;
    let most = best(i + 1, used);
    for (let j = 0; j < right; j++) {
      if (used.has(j) || !fits(i, j)) continue;
      used.add(j);
      most = Math.max(most, 1 + best(i + 1, used));
      used.delete(j);
    }
    return most;
  };
  return best(0, new Set());
}

/** The longest common subsequence by memoised recursion from the front. */
function bruteLcs(left: number, right: number, fits: (i: number, j: number) => boolean) {
  const memo = new Map<string, number>();
  const longest = (i: number, j: number): number => {
    if (i === left || j === right) return 0;
    const key = `${i},${j}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const value = Math.max(
      fits(i, j) ? 1 + longest(i + 1, j + 1) : 0,
      longest(i + 1, j),
      longest(i, j + 1),
    );
    memo.set(key, value);
    return value;
  };
  return longest(0, 0);
}

describe('maximumMatching', () => {
  it('finds a matching as large as exhaustive search, where a greedy pick falls short', () => {
    // Greedy gives item 0 its first fit (1), and item 1, which fits only 1, gets nothing.
    const fits = (i: number, j: number) => (i === 0 ? j <= 1 : j === 1);
    expect(maximumMatching(2, 2, fits)).toEqual([
      [0, 0],
      [1, 1],
    ]);
    const random = mulberry32(32);
    for (let round = 0; round < 300; round++) {
      const [left, right] = [1 + Math.floor(random() * 6), 1 + Math.floor(random() * 6)];
      const some = randomFits(random, left, right, 0.35);
      const pairs = maximumMatching(left, right, some);
      expect(pairs.length).toBe(bruteMatching(left, right, some));
      expect(pairs.every(([i, j]) => some(i, j))).toBe(true);
      expect(new Set(pairs.map(([, j]) => j)).size).toBe(pairs.length);
    }
  });
});

describe('longestCommonSubsequence', () => {
  it('is as long as the recursive definition, skipping calls on either side', () => {
    // Expected [a, b], actual [x, a, b]: the actual side's extra call must be skipped.
    const expected = ['a', 'b'];
    const actual = ['x', 'a', 'b'];
    expect(longestCommonSubsequence(2, 3, (i, j) => expected[i] === actual[j])).toEqual([
      [0, 1],
      [1, 2],
    ]);
    const random = mulberry32(33);
    for (let round = 0; round < 300; round++) {
      const [left, right] = [1 + Math.floor(random() * 7), 1 + Math.floor(random() * 7)];
      const some = randomFits(random, left, right, 0.3);
      const pairs = longestCommonSubsequence(left, right, some);
      expect(pairs.length).toBe(bruteLcs(left, right, some));
      expect(pairs.every(([i, j]) => some(i, j))).toBe(true);
      // In order on both sides.
      expect(
        pairs.every(([i, j], k) => k === 0 || (i > pairs[k - 1]![0] && j > pairs[k - 1]![1])),
      ).toBe(true);
    }
  });
});
