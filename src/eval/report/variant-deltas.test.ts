import { describe, expect, it } from 'vitest';
import { summarizeTasks } from './summarize.js';
import { summarizeSuites } from './summarize-suites.js';
import { makeRecord, sampleRecords } from './testing/records.js';
import { suiteDeltas, taskDeltas } from './variant-deltas.js';

/** T1 and T2 in three variants: baseline 1/3 and 0/3, strict 3/3 and 2/3, upgraded 2/3 and 3/3. */
function threeVariants() {
  const passes: Record<string, [number, number]> = {
    baseline: [1, 0],
    strict: [3, 2],
    upgraded: [2, 3],
  };
  return Object.entries(passes).flatMap(([variant, [t1, t2]]) =>
    [1, 2, 3].flatMap((trial) => [
      makeRecord({ task: 'T1', variant, trial, outcome: trial <= t1 ? 'passed' : 'failed' }),
      makeRecord({ task: 'T2', variant, trial, outcome: trial <= t2 ? 'passed' : 'failed' }),
    ]),
  );
}

describe('taskDeltas', () => {
  it('equals the report’s own delta when a task has two variants', () => {
    const rows = summarizeTasks(sampleRecords(), { trials: 3 });
    const deltas = taskDeltas(rows);
    for (const row of rows) expect(deltas.get(row)).toEqual(row.delta);
    expect(deltas.size).toBe(2);
    // Computed afresh, it is the same.
    const bare = rows.map(({ delta: _delta, ...row }) => row);
    expect([...taskDeltas(bare).values()]).toEqual(rows.flatMap((row) => row.delta ?? []));
  });

  it('gives every variant of a three-variant task its delta against the baseline', () => {
    const rows = summarizeTasks(threeVariants(), { trials: 3 });
    // The report itself has none: its delta is defined for two variants only.
    expect(rows.every((row) => row.delta === undefined)).toBe(true);
    const deltas = taskDeltas(rows);
    const of = (task: string, variant: string) =>
      deltas.get(rows.find((row) => row.task === task && row.variant === variant)!);
    expect(of('T1', 'baseline')).toBeUndefined();
    expect(of('T1', 'strict')).toMatchObject({ against: 'baseline', k: 3, passHatK: 1 });
    expect(of('T1', 'strict')?.passAt1).toBeCloseTo(2 / 3, 12);
    expect(of('T2', 'upgraded')).toMatchObject({ against: 'baseline', passAt1: 1 });
    expect(of('T2', 'upgraded')?.passAt1Interval?.lower).toBeGreaterThan(0);
    expect(deltas.size).toBe(4);
  });
});

describe('suiteDeltas', () => {
  it('equals the report’s own suite delta when a suite has two variants', () => {
    const tasks = summarizeTasks(sampleRecords(), { trials: 3 });
    const summary = summarizeSuites(tasks);
    const deltas = suiteDeltas(summary, tasks);
    for (const row of summary) expect(deltas.get(row)).toEqual(row.delta);
    const bare = summary.map(({ delta: _delta, ...row }) => row);
    expect([...suiteDeltas(bare, tasks).values()]).toEqual(
      summary.flatMap((row) => row.delta ?? []),
    );
  });

  it('pairs each variant of a three-variant suite with the baseline, task by task', () => {
    const tasks = summarizeTasks(threeVariants(), { trials: 3 });
    const summary = summarizeSuites(tasks);
    const deltas = suiteDeltas(summary, tasks);
    const of = (variant: string) => deltas.get(summary.find((row) => row.variant === variant)!);
    expect(of('baseline')).toBeUndefined();
    expect(of('strict')).toMatchObject({ against: 'baseline', tasks: 2 });
    // (3/3 - 1/3 + 2/3 - 0/3) / 2
    expect(of('strict')?.passAt1).toBeCloseTo(2 / 3, 12);
    expect(of('upgraded')?.passAt1).toBeCloseTo((1 / 3 + 1) / 2, 12);
    expect(of('upgraded')?.passAt1Interval).not.toBeNull();
  });
});
