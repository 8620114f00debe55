import { describe, expect, it } from 'vitest';
import type { TestCase, TestModule, TestSpecification } from 'vitest/node';
import type { TrialRecord } from '../spec/trial-record.js';
import { WatchReporter, type WatchState } from './watch-reporter.js';

/** A trial test of `task` in `file` that wrote a record with `outcome`. */
function trialTest(file: string, task: string, trial: number, outcome: string): TestCase {
  const suite = { type: 'suite', name: 'desk' };
  const record = { suite: 'desk', task, variant: 'baseline', trial, outcome };
  return {
    parent: {
      type: 'suite',
      id: `${file}-${task}`,
      name: `${task} A task`,
      parent: suite,
      meta: () => ({}),
    },
    name: `baseline trial ${trial}`,
    fullName: `desk > ${task} A task > baseline trial ${trial}`,
    module: { moduleId: file },
    meta: () => ({ trial: record as unknown as TrialRecord }),
    result: () => ({ state: 'passed', errors: [] }),
    diagnostic: () => ({ duration: 1 }),
  } as unknown as TestCase;
}

/** One vitest run of `files` with these trial tests; the state the reporter hands over. */
async function run(reporter: WatchReporter, files: string[], tests: TestCase[]) {
  reporter.onTestRunStart(files.map((moduleId) => ({ moduleId }) as TestSpecification));
  for (const test of tests) reporter.onTestCaseResult(test);
  await reporter.onTestRunEnd(
    files.map((moduleId) => ({ moduleId, errors: () => [] }) as unknown as TestModule),
    [],
  );
  return reporter.latest();
}

const outcomes = (state: WatchState) =>
  state.records.map((record) => `${record.task} ${record.trial} ${record.outcome}`).sort();

describe('WatchReporter', () => {
  it('keeps the files a re-run did not touch, and replaces the records of those it ran', async () => {
    const reporter = new WatchReporter('/p', async () => {});
    await run(
      reporter,
      ['/p/evals/a.eval.ts', '/p/evals/b.eval.ts'],
      [
        trialTest('/p/evals/a.eval.ts', 'T1', 1, 'passed'),
        trialTest('/p/evals/b.eval.ts', 'T2', 1, 'passed'),
      ],
    );
    const rerun = await run(
      reporter,
      ['/p/evals/a.eval.ts'],
      [trialTest('/p/evals/a.eval.ts', 'T1', 1, 'stale')],
    );
    expect(outcomes(rerun)).toEqual(['T1 1 stale', 'T2 1 passed']);
    expect(rerun.ran).toEqual(['/p/evals/a.eval.ts']);
  });

  it('drops the records of a re-run file that declares no trial any more', async () => {
    const reporter = new WatchReporter('/p', async () => {});
    await run(
      reporter,
      ['/p/evals/a.eval.ts'],
      [trialTest('/p/evals/a.eval.ts', 'T1', 1, 'passed')],
    );
    expect((await run(reporter, ['/p/evals/a.eval.ts'], [])).records).toEqual([]);
  });

  it('knows which files declared a task, whatever the case of its id', async () => {
    const reporter = new WatchReporter('/p', async () => {});
    await run(
      reporter,
      ['/p/evals/a.eval.ts'],
      [trialTest('/p/evals/a.eval.ts', 'T1', 1, 'passed')],
    );
    expect(reporter.filesOf('t1')).toEqual(['/p/evals/a.eval.ts']);
    expect(reporter.filesOf('T9')).toEqual([]);
  });

  it('hands each run, with the file whose change started it, to onRunDone', async () => {
    const seen: Array<string | undefined> = [];
    const reporter = new WatchReporter('/p', async (_state, trigger) => {
      seen.push(trigger);
    });
    await run(reporter, ['/p/evals/a.eval.ts'], []);
    reporter.onWatcherRerun(['/p/evals/a.eval.ts'], 'AGENTS.md');
    await run(reporter, ['/p/evals/a.eval.ts'], []);
    expect(seen).toEqual([undefined, 'AGENTS.md']);
  });
});
