import { describe, expect, it } from 'vitest';
import { wilsonInterval } from '../stats/wilson.js';
import { buildReport } from './build-report.js';
import {
  buildHistory,
  callChange,
  classifyChanges,
  type HistoryPoint,
  type HistoryValue,
} from './history-model.js';
import { makeRecord } from './testing/records.js';

function value(passed: number, n: number, cassettes: string[] = []): HistoryValue {
  return { n, passed, rate: passed / n, interval: wilsonInterval(n, passed)!, cassettes };
}

describe('callChange', () => {
  it('calls a change only when the 95% interval of the difference leaves out 0', () => {
    expect(callChange(value(2, 3), value(1, 3))).toBeUndefined();
    expect(callChange(value(9, 10), value(8, 10))).toBeUndefined();
    const called = callChange(value(10, 10), value(2, 10));
    expect(called?.deterministic).toBe(false);
    expect(called?.difference.value).toBeCloseTo(-0.8);
    expect(called?.difference.interval.upper).toBeLessThan(0);
  });

  it('calls any difference between the same cassettes: a replay is no sample', () => {
    const same = ['#1=sha256:a', '#2=sha256:b', '#3=sha256:c'];
    expect(callChange(value(3, 3, same), value(2, 3, same))).toMatchObject({
      deterministic: true,
    });
    expect(callChange(value(3, 3, same), value(2, 3, [...same.slice(1), '#1=sha256:z']))).toBe(
      undefined,
    );
  });

  it('calls nothing when the rate did not move', () => {
    expect(callChange(value(5, 10, ['x']), value(5, 10, ['x']))).toBeUndefined();
  });
});

describe('classifyChanges', () => {
  const high = value(10, 10);
  const low = value(1, 10);

  it('marks a fall with the harness changed regressed, and the rise after it recovered', () => {
    const changes = classifyChanges([high, low, low, high], ['h1', 'h2', 'h2', 'h3']);
    expect(changes.map(({ at, from, mark }) => [at, from, mark])).toEqual([
      [1, 0, 'regressed'],
      [3, 2, 'recovered'],
    ]);
    expect(changes[0]?.harnessChanged).toBe(true);
  });

  it('marks a rise with no regression open improved', () => {
    expect(classifyChanges([low, high], ['h1', 'h2']).map((change) => change.mark)).toEqual([
      'improved',
    ]);
  });

  it('marks a move with the harness unchanged flaky, and it opens no regression', () => {
    const changes = classifyChanges([high, low, high, low, high], ['h', 'h', 'h', 'h2', 'h3']);
    expect(changes.map((change) => change.mark)).toEqual([
      'flaky',
      'flaky',
      'regressed',
      'recovered',
    ]);
    expect(changes[0]?.harnessChanged).toBe(false);
  });

  it('compares across a report the row is missing from, and knows no harness without git', () => {
    const changes = classifyChanges([high, undefined, low], [undefined, undefined, undefined]);
    expect(changes).toMatchObject([
      { at: 2, from: 0, mark: 'regressed', harnessChanged: undefined },
    ]);
  });
});

describe('buildHistory', () => {
  function point(id: string, passes: number, harness: string): HistoryPoint {
    const records = Array.from({ length: 10 }, (_, index) =>
      makeRecord({
        trial: index + 1,
        outcome: index < passes ? 'passed' : 'failed',
        cassetteHash: `sha256:${id}-${index}`,
      }),
    );
    const report = buildReport({ records, trials: 10, floors: [], generatedAt: id });
    return { id, label: id, date: id, report, harness };
  }

  it('follows each task and variant over the points with its Wilson interval and changes', () => {
    const [series, ...others] = buildHistory([
      point('a', 10, 'h1'),
      point('b', 9, 'h1'),
      point('c', 2, 'h2'),
    ]);
    expect(others).toEqual([]);
    expect(series).toMatchObject({ suite: 'refund-desk', task: 'T1', variant: 'upgraded' });
    expect(series?.values.map((entry) => entry?.passed)).toEqual([10, 9, 2]);
    expect(series?.values[1]?.interval).toEqual(wilsonInterval(10, 9));
    expect(series?.values[0]?.cassettes).toHaveLength(10);
    expect(series?.changes).toMatchObject([{ at: 2, from: 1, mark: 'regressed' }]);
  });
});
