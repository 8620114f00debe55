import { describe, expect, it } from 'vitest';
import type { Interval } from './interval.js';
import { pooledRate, suitePassKIntervals } from './suite-interval.js';
import { wilsonInterval } from './wilson.js';

const counts = (n: number, passed: number) => ({ n, passed });
const same = (tasks: number, n: number, passed: number) =>
  Array.from({ length: tasks }, () => counts(n, passed));
const passAt1 = (tasks: ReadonlyArray<{ n: number; passed: number }>) =>
  suitePassKIntervals(tasks, [1])[0]?.passAtK;
const holds = (outer: Interval | undefined, inner: Interval | undefined) => {
  expect(outer?.lower).toBeLessThanOrEqual(inner!.lower + 1e-12);
  expect(outer?.upper).toBeGreaterThanOrEqual(inner!.upper - 1e-12);
};

describe('pooledRate', () => {
  it('weights each task once and counts T² / Σ(1/n) trials, the pooled trials at equal n', () => {
    expect(pooledRate(same(3, 4, 1))).toEqual({ rate: 0.25, n: 12 });
    const unequal = pooledRate([counts(3, 1), counts(3, 3), counts(2, 0), counts(5, 4)]);
    expect(unequal?.rate).toBeCloseTo(0.5333333333, 10);
    expect(unequal?.n).toBeCloseTo(11.7073170732, 10);
    expect(pooledRate([])).toBeUndefined();
  });
});

describe('suitePassKIntervals', () => {
  it('matches the reference two-level bootstrap for seed 7 (tasks of unequal n)', () => {
    // See reference/compute-reference.py; the pooled floor [0.28, 0.77] is narrower here.
    const tasks = [counts(3, 1), counts(3, 3), counts(2, 0), counts(5, 4)];
    const interval = suitePassKIntervals(tasks, [1], { seed: 7, resamples: 2000 })[0]?.passAtK;
    expect(interval?.lower).toBeCloseTo(0.0833333333, 8);
    expect(interval?.upper).toBeCloseTo(0.95, 8);
  });

  it('gives two tasks at 1/3 at least the Wilson interval of 2/6, not [0.33, 0.33]', () => {
    const interval = passAt1(same(2, 3, 1));
    holds(interval, wilsonInterval(6, 2));
    expect(interval!.upper - interval!.lower).toBeGreaterThan(0.5);
  });

  it('gives three tasks at 0/3 the Wilson interval of 0/9, not [0, 0]', () => {
    expect(passAt1(same(3, 3, 0))).toEqual(wilsonInterval(9, 0));
    const atThree = suitePassKIntervals(same(3, 3, 3), [3])[0];
    expect(atThree?.passHatK.lower).toBeCloseTo(wilsonInterval(9, 9)!.lower ** 3, 12);
    expect(atThree?.passHatK.upper).toBe(1);
  });

  it('is never narrower than the pooled binomial interval when every task has the same counts', () => {
    for (const tasks of [1, 2, 3, 5, 8]) {
      for (const n of [1, 2, 3, 5, 10]) {
        for (let passed = 0; passed <= n; passed++) {
          holds(passAt1(same(tasks, n, passed)), wilsonInterval(tasks * n, tasks * passed));
        }
      }
    }
  });

  it('holds the suite estimate and is undefined at a k some task did not reach', () => {
    const tasks = [counts(3, 2), counts(3, 2), counts(2, 2)];
    const [atTwo, atThree] = suitePassKIntervals(tasks, [2, 3]);
    // pass^2 of 2 in 3 is 1/3 per task, 1 for 2 of 2: the suite's is 5/9
    expect(atTwo?.passHatK.lower).toBeLessThanOrEqual(5 / 9);
    expect(atTwo?.passHatK.upper).toBeGreaterThanOrEqual(5 / 9);
    expect(atThree).toBeUndefined();
    expect(suitePassKIntervals([], [1, 2])).toEqual([undefined, undefined]);
  });

  it('is the same every time and refuses counts no task can have', () => {
    const tasks = [counts(3, 1), counts(3, 3), counts(5, 2)];
    expect(suitePassKIntervals(tasks, [1, 2])).toEqual(suitePassKIntervals(tasks, [1, 2]));
    expect(() => passAt1([counts(3, 1), counts(0, 0)])).toThrow(
      /task 2 needs whole numbers 0 <= passed <= n with n >= 1, got passed=0 n=0/,
    );
    expect(() => passAt1([counts(2.5, 1)])).toThrow(RangeError);
  });
});
