import { describe, expect, it } from 'vitest';
import { rateDifference } from '../stats/difference.js';
import type { Interval } from '../stats/interval.js';
import { wilsonInterval } from '../stats/wilson.js';
import { suiteDelta, suiteIntervals, taskDeltaInterval, taskIntervals } from './intervals.js';
import { summarizeTasks } from './summarize.js';
import { summarizeSuites } from './summarize-suites.js';
import { makeRecord } from './testing/records.js';

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

  it('gives no rate interval over a single task: one task resamples to itself', () => {
    expect(suiteIntervals(tasks({ T1: 'PPF' })).passAt1).toBeNull();
  });

  // Issue 33: a one-task suite printed a Δ with no interval.
  it("gives a one-task suite's Δ its task's interval (Newcombe), as the task row shows it", () => {
    const delta = suiteDelta('baseline', [
      [
        { n: 3, passed: 0 },
        { n: 3, passed: 3 },
      ],
    ]);
    expect(delta).toMatchObject({ against: 'baseline', tasks: 1, passAt1: 1 });
    expect(delta.passAt1Interval).toEqual(
      taskDeltaInterval({ n: 3, passed: 0 }, { n: 3, passed: 3 }).passAt1Interval,
    );
    expect(delta.passAt1Interval).not.toBeNull();
    expect(delta.distinguishable).toBe(true);
    expect(suiteDelta('baseline', [])).toMatchObject({ tasks: 0, passAt1: null });
  });
});

describe('suite intervals count the trials within each task, not only how tasks differ', () => {
  // outcomes per variant and task: 'PFF' is trial 1 passed, trials 2 and 3 failed
  const run = (variants: Record<string, Record<string, string>>) =>
    summarizeTasks(
      Object.entries(variants).flatMap(([variant, rates]) =>
        Object.entries(rates).flatMap(([task, outcomes]) =>
          [...outcomes].map((letter, index) =>
            makeRecord({
              suite: 'stat',
              task,
              variant,
              trial: index + 1,
              outcome: letter === 'P' ? 'passed' : 'failed',
            }),
          ),
        ),
      ),
    );
  const holds = (outer: Interval | null | undefined, inner: Interval | undefined) => {
    expect(outer?.lower).toBeLessThanOrEqual(inner!.lower + 1e-12);
    expect(outer?.upper).toBeGreaterThanOrEqual(inner!.upper - 1e-12);
  };

  it('gives two tasks at 1/3 at least the Wilson interval of 2/6, not [0.33, 0.33]', () => {
    const interval = suiteIntervals(run({ baseline: { P1: 'PFF', P2: 'PFF' } })).passAt1;
    holds(interval, wilsonInterval(6, 2));
  });

  it('gives three tasks at 0/3 at least the Wilson interval of 0/9, not [0, 0]', () => {
    const intervals = suiteIntervals(run({ baseline: { T1: 'FFF', T2: 'FFF', T3: 'FFF' } }));
    holds(intervals.passAt1, wilsonInterval(9, 0));
    expect(intervals.passAtK['3']?.upper).toBeGreaterThan(0);
    expect(intervals.passHatK['3']?.upper).toBeGreaterThan(0);
  });

  it('does not call 1/3 -> 2/3 on two tasks distinguishable (the pooled 2/6 -> 4/6 is not)', () => {
    const summary = summarizeSuites(
      run({
        baseline: { P1: 'PFF', P2: 'PFF' },
        upgraded: { P1: 'PPF', P2: 'PPF' },
      }),
    );
    const delta = summary.find((row) => row.variant === 'upgraded')?.delta;
    expect(delta?.passAt1).toBeCloseTo(1 / 3, 12);
    expect(delta?.distinguishable).toBe(false);
    holds(delta?.passAt1Interval, rateDifference(6, 2, 6, 4)?.interval);
  });

  it('gives 0/1 -> 1/1 on two tasks (--trials 1) an interval with width, not [+1.00, +1.00]', () => {
    const summary = summarizeSuites(
      run({ baseline: { P1: 'F', P2: 'F' }, upgraded: { P1: 'P', P2: 'P' } }),
    );
    const delta = summary.find((row) => row.variant === 'upgraded')?.delta;
    holds(delta?.passAt1Interval, rateDifference(2, 0, 2, 2)?.interval);
    expect(delta?.passAt1Interval?.lower).toBeLessThan(0.5);
  });

  it('is never narrower than the pooled binomial interval when every task has the same counts', () => {
    for (const tasks of [2, 3]) {
      for (const trials of [1, 3, 5]) {
        for (let passed = 0; passed <= trials; passed++) {
          const outcomes = 'P'.repeat(passed) + 'F'.repeat(trials - passed);
          const rates = Object.fromEntries(
            Array.from({ length: tasks }, (_, index) => [`T${index + 1}`, outcomes]),
          );
          const pooled = wilsonInterval(tasks * trials, tasks * passed);
          holds(suiteIntervals(run({ baseline: rates })).passAt1, pooled);
          const other = Math.min(trials, passed + 1);
          const after = Object.fromEntries(
            Object.keys(rates).map((task) => [
              task,
              'P'.repeat(other) + 'F'.repeat(trials - other),
            ]),
          );
          const delta = summarizeSuites(run({ baseline: rates, upgraded: after })).find(
            (row) => row.variant === 'upgraded',
          )?.delta;
          const pooledDelta = rateDifference(
            tasks * trials,
            tasks * passed,
            tasks * trials,
            tasks * other,
          );
          holds(delta?.passAt1Interval, pooledDelta?.interval);
          if (pooledDelta && !pooledDelta.distinguishable) {
            expect(delta?.distinguishable).toBe(false);
          }
        }
      }
    }
  });
});
