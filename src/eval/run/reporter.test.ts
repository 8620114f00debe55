import { describe, expect, it } from 'vitest';
import type { TestCase, TestSuite } from 'vitest/node';
import { EvalReporter } from './reporter.js';

/** What vitest hands the reporter for a trial test that failed before it wrote a record. */
function failedTest(name: string, message: string): TestCase {
  const suite = { type: 'suite', name: 'hang' };
  return {
    parent: { type: 'suite', name: 'G1 Hanging lookup', parent: suite, meta: () => ({}) },
    name,
    fullName: `hang > G1 Hanging lookup > ${name}`,
    module: { moduleId: '/project/evals/hang.eval.ts' },
    meta: () => ({}),
    result: () => ({ state: 'failed', errors: [{ message }] }),
  } as unknown as TestCase;
}

/** A declaration of task G1 (a skipped trial test) in `file`, in the describe block `blockId`. */
function declaredTest(file: string, blockId: string): TestCase {
  const suite = { type: 'suite', name: 'hang' };
  return {
    parent: {
      type: 'suite',
      id: blockId,
      name: 'G1 Hanging lookup',
      parent: suite,
      meta: () => ({}),
    },
    name: 'baseline trial 1',
    fullName: 'hang > G1 Hanging lookup > baseline trial 1',
    module: { moduleId: `/project/evals/${file}` },
    meta: () => ({}),
    result: () => ({ state: 'skipped' }),
  } as unknown as TestCase;
}

const TIMEOUT =
  'Test timed out in 8000ms.\nIf this is a long-running test, pass a timeout value as the last argument or configure it globally with "testTimeout".';

describe('EvalReporter', () => {
  it('reports a trial that timed out as timed out while running, not as failed before it ran', () => {
    const reporter = new EvalReporter({ root: '/project' });
    reporter.onTestCaseResult(failedTest('baseline trial 1', TIMEOUT));
    expect(reporter.unfinished).toEqual([
      {
        suite: 'hang',
        task: 'G1',
        variant: 'baseline',
        trial: 1,
        problem: 'timed out after 8000 ms',
        reason:
          'hang > G1 Hanging lookup > baseline trial 1 timed out after 8000 ms while it ran, without a verdict (a hang in the agent, a tool or the check, or testTimeout in the vitest config is too short)',
      },
    ]);
    expect(reporter.loadErrors).toEqual([]);
  });

  it('reports a trial that threw without a record as failed without a verdict', () => {
    const reporter = new EvalReporter({ root: '/project' });
    reporter.onTestCaseResult(failedTest('upgraded trial 2', 'boom'));
    expect(reporter.unfinished).toMatchObject([
      {
        variant: 'upgraded',
        trial: 2,
        problem: 'failed without a verdict: boom',
        reason: 'hang > G1 Hanging lookup > upgraded trial 2 failed without a verdict: boom',
      },
    ]);
  });

  it('keeps a failed test that is no trial as a load error', () => {
    const reporter = new EvalReporter({ root: '/project' });
    reporter.onTestCaseResult(failedTest('a plain test', 'boom'));
    expect(reporter.unfinished).toEqual([]);
    expect(reporter.loadErrors).toEqual([
      'hang > G1 Hanging lookup > a plain test failed without a verdict: boom',
    ]);
  });

  it("names a describe block whose hook failed, e.g. a task's wait for its stray timers", () => {
    const reporter = new EvalReporter({ root: '/project' });
    reporter.onTestSuiteResult({
      fullName: 'hang > G1 Hanging lookup',
      module: { moduleId: '/project/evals/hang.eval.ts' },
      errors: () => [{ message: '1 timer set by G1 baseline trial 1 was still pending' }],
    } as unknown as TestSuite);
    expect(reporter.loadErrors).toEqual([
      'evals/hang.eval.ts: hang > G1 Hanging lookup: 1 timer set by G1 baseline trial 1 was still pending',
    ]);
  });

  it('counts an error vitest caught after the run ended once, beside those handed over', () => {
    const reporter = new EvalReporter({ root: '/project' });
    const early = { message: 'early', type: 'Uncaught Exception' };
    const late = { message: 'late', type: 'Uncaught Exception' };
    reporter.onTestRunEnd([], [early]);
    reporter.addLateErrors([early, late]);
    expect(reporter.runErrors).toEqual([
      'uncaught exception during the run: early',
      'uncaught exception during the run: late',
    ]);
  });

  // A --task run that falls back loads the files its first pass left out, with this reporter.
  it('ends a run made in two passes with each reason once, counted over both passes', () => {
    const reporter = new EvalReporter({ root: '/project' });
    const error = { message: 'boom', type: 'Unhandled Rejection' };
    reporter.onTestCaseResult(declaredTest('a.eval.ts', 'a1'));
    reporter.onTestCaseResult(declaredTest('a.eval.ts', 'a2'));
    reporter.onTestRunEnd([], [error]);
    reporter.onTestCaseResult(declaredTest('b.eval.ts', 'b1'));
    reporter.onTestRunEnd([], [error]);
    expect(reporter.runErrors).toEqual(['unhandled rejection during the run, 2 times: boom']);
    expect(reporter.loadErrors).toEqual([
      "task id 'G1' is declared 3 times in suite hang (evals/a.eval.ts, evals/b.eval.ts): they share fixtures/G1/ (one records over the other) and floors; rename one of them (ids that differ only in case count as the same)",
    ]);
  });
});

describe('EvalReporter transcripts', () => {
  it('uses the transcript a trial handed over, without reading its files again', async () => {
    const reporter = new EvalReporter({ root: '/project', preloadTranscripts: true });
    const transcript = {
      format: 'anthropic-messages',
      transcript: { system: 's', user: 'u', turns: [], finalAnswer: 'done' },
    };
    const record = {
      suite: 'refund-desk',
      task: 'T2',
      title: 'Order not found',
      variant: 'upgraded',
      trial: 1,
      outcome: 'passed',
      messages: [],
      modelLatenciesMs: [],
      // Not on disk: reading it would make the transcript unavailable.
      fixture: 'fixtures/T2/upgraded/trial-1.json',
    };
    reporter.onTestCaseResult({
      parent: {
        type: 'suite',
        name: 'T2 Order not found',
        parent: { type: 'suite', name: 'refund-desk' },
        meta: () => ({}),
      },
      name: 'upgraded trial 1',
      fullName: 'refund-desk > T2 Order not found > upgraded trial 1',
      module: { moduleId: '/project/evals/t2.eval.ts' },
      meta: () => ({ trial: record, transcript }),
      result: () => ({ state: 'passed', errors: [] }),
      diagnostic: () => ({ duration: 1 }),
    } as unknown as TestCase);
    const [only] = reporter.records;
    expect(await reporter.transcripts.get(only!)).toEqual(transcript);
  });
});
