import { describe, expect, it } from 'vitest';
import { twoLevelBootstrap } from './two-level-bootstrap.js';

const passes = (n: number) => Array.from({ length: n + 1 }, (_, c) => c);

describe('twoLevelBootstrap', () => {
  it('redraws a task’s passes from Binomial(n, passed/n): 5 of 10 spreads to [2, 8]', () => {
    const [interval] = twoLevelBootstrap([
      [{ counts: { n: 10, passed: 5 }, scores: [passes(10)] }],
    ])!;
    expect(interval).toEqual({ lower: 2, upper: 8 });
  });

  it('redraws 0/n as 0/n and n/n as n/n, and gives one interval per statistic', () => {
    const intervals = twoLevelBootstrap([
      [{ counts: { n: 3, passed: 0 }, scores: [passes(3), [5, 5, 5, 5]] }],
      [{ counts: { n: 3, passed: 3 }, scores: [passes(3), [5, 5, 5, 5]] }],
    ]);
    expect(intervals).toHaveLength(2);
    expect(intervals?.[0]).toEqual({ lower: 0, upper: 3 });
    expect(intervals?.[1]).toEqual({ lower: 5, upper: 5 });
    expect(twoLevelBootstrap([])).toBeUndefined();
  });

  it('refuses a score table that does not cover 0..n passes, naming the task', () => {
    expect(() =>
      twoLevelBootstrap([
        [{ counts: { n: 2, passed: 1 }, scores: [passes(2)] }],
        [{ counts: { n: 3, passed: 1 }, scores: [passes(2)] }],
      ]),
    ).toThrow(/task 2 needs 1 score rows of n \+ 1 = 4 values each/);
  });
});
