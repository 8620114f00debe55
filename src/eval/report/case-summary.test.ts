import { describe, expect, it } from 'vitest';
import type { TrialRecord } from '../spec/trial-record.js';
import { wilsonInterval } from '../stats/wilson.js';
import { buildReport } from './build-report.js';
import { summarizeCases } from './case-summary.js';
import { htmlModel } from './html-model.js';
import { renderMarkdown } from './markdown.js';
import { buildReportModel } from './report-model.js';
import { renderTerminal } from './terminal.js';
import { makeRecord } from './testing/records.js';

/** A dataset task: each case passes `passes[case]` of 3 trials. */
function dataset(variant: string, passes: number[]): TrialRecord[] {
  return passes.flatMap((passed, index) =>
    [1, 2, 3].map((trial) =>
      makeRecord({
        task: 'T7',
        title: 'questions',
        variant,
        case: `q${String(index + 1).padStart(2, '0')}`,
        trial,
        outcome: trial <= passed ? 'passed' : 'failed',
      }),
    ),
  );
}

const report = (records: TrialRecord[]) =>
  buildReport({ records, trials: 3, floors: [], generatedAt: '2026-01-09T10:00:00Z' });

describe('a task over cases', () => {
  // Ten cases the agent always gets right and ten it never does: 30 of 60 trials.
  const split = [...Array(10).fill(3), ...Array(10).fill(0)] as number[];

  it('reports per-case rates and the task as the mean over its cases', () => {
    const [row] = report(dataset('v1', [3, 2, 0, 1])).tasks;
    expect(row?.cases).toEqual([
      { case: 'q01', n: 3, passed: 3, passAt1: 1 },
      { case: 'q02', n: 3, passed: 2, passAt1: expect.closeTo(2 / 3, 12) },
      { case: 'q03', n: 3, passed: 0, passAt1: 0 },
      { case: 'q04', n: 3, passed: 1, passAt1: expect.closeTo(1 / 3, 12) },
    ]);
    expect([row?.n, row?.passed]).toEqual([12, 6]);
    expect(row?.passAt1).toBeCloseTo(0.5, 12);
    // pass^3 per case: 1, 0, 0, 0.
    expect(row?.passHatK['3']).toBeCloseTo(0.25, 12);
  });

  it("treats a case's trials as a cluster: wider than the Wilson interval of the pooled trials", () => {
    const [row] = report(dataset('v1', split)).tasks;
    const naive = wilsonInterval(60, 30)!;
    const clustered = row!.intervals.passAt1!;
    expect(row?.passAt1).toBe(0.5);
    // Trials of one case agree: 20 clusters say less than 60 independent trials would.
    expect(clustered.upper - clustered.lower).toBeGreaterThan(1.3 * (naive.upper - naive.lower));
    expect(clustered.lower).toBeLessThanOrEqual(naive.lower);
    expect(clustered.upper).toBeGreaterThanOrEqual(naive.upper);
  });

  it('pairs the Δ of a variant by case', () => {
    const better = split.map((passed) => Math.min(3, passed + 1));
    const built = report([...dataset('baseline', split), ...dataset('upgraded', better)]);
    const delta = built.tasks.find((row) => row.variant === 'upgraded')?.delta;
    expect(delta?.against).toBe('baseline');
    expect(delta?.passAt1).toBeCloseTo(10 / 60, 12);
    expect(delta?.passAt1Interval).not.toBeNull();
  });

  it('shows each case under each variant in the terminal, markdown and HTML reports', () => {
    const built = report([...dataset('baseline', [0, 3]), ...dataset('upgraded', [3, 3])]);
    const terminal = renderTerminal(built);
    expect(terminal).toContain("Cases of T7 questions (the task's rates are their means)");
    expect(terminal).toMatch(/│ q01 +│ +0\/3 \(0\.00\) │ +3\/3 \(1\.00\) │/);
    const markdown = renderMarkdown(built);
    expect(markdown).toContain('<summary>T7 questions: 2 cases</summary>');
    expect(markdown).toContain('| q01 | 0/3 (0.00) | 3/3 (1.00) |');
    expect(htmlModel(buildReportModel(built)).cases).toEqual([
      {
        suite: 'refund-desk',
        task: 'T7',
        title: 'questions',
        variants: ['baseline', 'upgraded'],
        rows: [
          { case: 'q01', cells: ['0/3 (0.00)', '3/3 (1.00)'] },
          { case: 'q02', cells: ['3/3 (1.00)', '3/3 (1.00)'] },
        ],
      },
    ]);
    // Failures name their case.
    expect(terminal).toContain('T7 baseline case q01 trial 1: failed');
  });

  it('weighs each case once, over its counted trials only (errored and stale trials are out)', () => {
    const trial = (id: string, number: number, outcome: TrialRecord['outcome']) =>
      makeRecord({ task: 'T7', title: 'questions', case: id, trial: number, outcome });
    const records = [
      trial('q01', 1, 'passed'),
      trial('q01', 2, 'stale'),
      trial('q02', 1, 'passed'),
      trial('q02', 2, 'failed'),
      trial('q02', 3, 'failed'),
      trial('q02', 4, 'errored'),
    ];
    const row = summarizeCases(records, 3);
    // Counted: q01 1/1, q02 1/3. The mean over cases is (1 + 1/3) / 2 = 2/3; pooled it would be
    // 2/4, and counting the stale and errored trials as failures (1/2 + 1/4) / 2 = 3/8.
    expect(row.cases).toEqual([
      { case: 'q01', n: 1, passed: 1, passAt1: 1 },
      { case: 'q02', n: 3, passed: 1, passAt1: expect.closeTo(1 / 3, 12) },
    ]);
    expect(row.passAt1).toBeCloseTo(2 / 3, 12);
    // pass@2 needs every counted case to reach 2 trials: q01 has one.
    expect(row.passAtK['2']).toBeNull();
  });

  it("holds a suite's pass@k estimate in its interval when a task is over cases", () => {
    // refund-desk upgraded's shape: seven tasks at 3/3 and 24 cases, one of them 0/3 (69/72).
    const tasks = ['T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'T7'].flatMap((task) =>
      [1, 2, 3].map((trial) => makeRecord({ task, trial })),
    );
    const cases = dataset('upgraded', [0, ...Array(23).fill(3)]).map((record) => ({
      ...record,
      task: 'T8',
    }));
    const [suite] = report([...tasks, ...cases]).summary;
    // T8's pass@3 is the mean over its cases, 23/24; the suite's (7 + 23/24) / 8 = 0.99479.
    expect(suite?.passAtK['3']).toBeCloseTo((7 + 23 / 24) / 8, 12);
    const interval = suite!.intervals.passAtK['3']!;
    expect(interval.lower).toBeLessThanOrEqual(suite!.passAtK['3']!);
    expect(interval.upper).toBe(1);
    // A redraw of T8's 24 cases leaves its 0/3 case out a third of the time ((23/24)^24 = 0.36)
    // and draws it twice or more a quarter of the time: the interval is not a point.
    expect(interval.lower).toBeLessThan(0.99);
  });

  it('marks the interval of a task over 2-4 cases as rough (†) in every renderer and the JSON', () => {
    const few = report(dataset('upgraded', [3, 2, 1]));
    expect(few.tasks[0]?.fewCases).toBe(true);
    const model = buildReportModel(few);
    expect(model.scores.rows[0]?.withIntervals.passAt1).toMatch(/ †$/);
    expect(renderTerminal(few)).toContain('† fewer than 5 cases');
    expect(renderMarkdown(few)).toContain('† fewer than 5 cases');
    expect(htmlModel(model).notes.some((note) => note.startsWith('† fewer than 5 cases'))).toBe(
      true,
    );
    const enough = report(dataset('upgraded', [3, 2, 1, 0, 3]));
    expect(enough.tasks[0]?.fewCases).toBeUndefined();
    expect(renderTerminal(enough)).not.toContain('† fewer than 5 cases');
  });
});
