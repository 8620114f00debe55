import { describe, expect, it } from 'vitest';
import { suiteDelta, suiteIntervals, taskIntervals } from './intervals.js';
import { summarizeTasks } from './summarize.js';
import { makeRecord } from './test-records.js';

describe('taskIntervals', () => {
  it('gives Wilson for pass@1 and null where a rate is null', () => {
    const intervals = taskIntervals(3, 2, 4);
    expect(intervals.passAt1?.lower).toBeCloseTo(0.2076596008, 8);
    expect(intervals.passHatK['4']).toBeNull();
    expect(taskIntervals(0, 0, 1)).toEqual({
      passAt1: null,
      passAtK: { '1': null },
      passHatK: { '1': null },
    });
  });
});

describe('suite intervals', () => {
  const tasks = (rates: Record<string, string>) =>
    summarizeTasks(
      Object.entries(rates).flatMap(([task, outcomes]) =>
        [...outcomes].map((letter, index) =>
          makeRecord({ task, trial: index + 1, outcome: letter === 'P' ? 'passed' : 'failed' }),
        ),
      ),
    );

  it('bootstraps the suite mean over tasks, the same every time', () => {
    const rows = tasks({ T1: 'PPP', T2: 'PFF', T3: 'PPF', T4: 'FFF' });
    const first = suiteIntervals(rows);
    expect(first.passAt1?.lower).toBeLessThan(0.5);
    expect(first.passAt1?.upper).toBeGreaterThan(0.5);
    expect(suiteIntervals(rows)).toEqual(first);
  });

  it('gives no interval over a single task: one task resamples to itself', () => {
    expect(suiteIntervals(tasks({ T1: 'PPF' })).passAt1).toBeNull();
    expect(suiteDelta('baseline', [[0, 1]])).toEqual({
      against: 'baseline',
      tasks: 1,
      passAt1: 1,
      passAt1Interval: null,
      distinguishable: null,
    });
    expect(suiteDelta('baseline', [])).toMatchObject({ tasks: 0, passAt1: null });
  });
});
