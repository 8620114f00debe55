import { describe, expect, it } from 'vitest';
import { buildReport } from './build-report.js';
import { detectionLimits, detectionView } from './detection.js';
import { renderMarkdown } from './markdown.js';
import { summarizeTasks } from './summarize.js';
import { summarizeSuites } from './summarize-suites.js';
import { renderTerminal } from './terminal.js';
import { makeRecord } from './testing/records.js';

/** `tasks` rows of `n` trials each, `passed` of them passing. */
function rows(tasks: number, n: number, passed: number) {
  return Array.from({ length: tasks }, (_, task) =>
    Array.from({ length: n }, (_, trial) =>
      makeRecord({
        task: `T${task + 1}`,
        trial: trial + 1,
        outcome: trial < passed ? 'passed' : 'failed',
      }),
    ),
  ).flat();
}

// The break (issue 28): power was below 9% for any drop short of a collapse at n <= 5, and the
// report did not say so.
describe('detectionLimits', () => {
  it('says a 20-row run at n = 3 detects no drop at all, and what n = 30 finds', () => {
    const at3 = detectionLimits(summarizeTasks(rows(20, 3, 3)), undefined, 0.05);
    expect(at3).toMatchObject({ alpha: 0.05, family: 20, power: 0.8, pricedDrop: 0.1 });
    expect(at3.rows.map((row) => row.detectableDrop)).toEqual(Array(20).fill(null));
    // 1.00 -> 0.90 at 0.0025: scipy gives 112 per side power 0.799, 113 per side 0.808.
    expect(at3.rows[0]).toMatchObject({ n: 3, from: 1, trialsForPricedDrop: 113 });
    const at30 = detectionLimits(summarizeTasks(rows(20, 30, 30)), undefined, 0.05);
    expect(at30.rows[0]).toMatchObject({ n: 30, from: 1, detectableDrop: 0.33 });
  });

  it("measures a drop from the reference's rate when the reference has the row", () => {
    const report = buildReport({
      records: rows(1, 10, 5),
      trials: 10,
      floors: [],
      generatedAt: 'now',
      reference: buildReport({
        records: rows(1, 10, 9),
        trials: 10,
        floors: [],
        generatedAt: 'then',
      }),
    });
    expect(report.detection.rows[0]).toMatchObject({ from: 0.9, n: 10 });
  });

  it('is printed in the terminal and the markdown report', () => {
    const report = buildReport({
      records: rows(2, 3, 3),
      trials: 3,
      floors: [],
      generatedAt: 'now',
    });
    const view = detectionView(report.detection, false);
    expect(view.summary).toMatch(
      /^Detection limit, if these rows were re-recorded: the drop test runs at alpha 0\.05 over 2 rows \(0\.025 per row\); .* 2 of the 2 rows above 0 could not detect even a fall to 0 at their n\.$/,
    );
    // 1.00 -> 0.90 at 0.025: scipy gives 77 per side power 0.794, 78 per side 0.804.
    expect(view.rows[0]).toEqual(['T1', 'upgraded', '3', '1.00', 'none, not even to 0', '78']);
    expect(renderTerminal(report)).toContain('Detection limit, if these rows were re-recorded');
    expect(renderMarkdown(report)).toContain('<summary>Detection limit</summary>');
  });
});

// The break (issue 28): a suite bootstrap over 2-4 heterogeneous tasks covered 75-93%, not 95%.
describe('suite intervals over fewer than 5 tasks', () => {
  it('are flagged rough in the JSON report and marked in the terminal and markdown', () => {
    const flags = [1, 2, 4, 5].map(
      (tasks) => summarizeSuites(summarizeTasks(rows(tasks, 3, 2)))[0]!.fewTasks,
    );
    expect(flags).toEqual([false, true, true, false]);
    const report = buildReport({
      records: rows(4, 3, 2),
      trials: 3,
      floors: [],
      generatedAt: 'now',
    });
    for (const text of [renderTerminal(report), renderMarkdown(report)]) {
      expect(text).toMatch(/0\.67 \[\d\.\d\d, \d\.\d\d\] †/);
      expect(text).toContain('fewer than 5 tasks: the suite interval');
    }
  });
});
