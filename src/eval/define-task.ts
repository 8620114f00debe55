import { afterAll, describe, it, type TestContext, TestRunner } from 'vitest';
import { gradeTrial } from './grade/grade-trial.js';
import { boundTrial } from './report/html-bounds.js';
import { selectCases } from './spec/case-selection.js';
import { readEvalSettings } from './spec/settings.js';
import { shardOfTrial } from './spec/shard.js';
import type { TaskDefinition } from './spec/task-definition.js';
import type { Floor, TrialRecord } from './spec/trial-record.js';
import { checkedCases, checkTaskDeclaration, checkTaskTrials } from './task/task-declaration.js';
import { declarationSite, registerTask } from './task/task-registry.js';
import type { TrialTranscript } from './transcript/transcript-formats.js';
import { inTrialScope, STRAY_TIMER_WAIT_MS, settleStrayTimers } from './trial/stray-timers.js';
import type { TrialRequest } from './trial/trial-driver.js';
import { runTrial } from './trial/trial-runner.js';
import { inventoryFixtures } from './verify/fixture-inventory.js';
import type { ScriptedVerdict } from './verify/rederive-scripted.js';

declare module 'vitest' {
  interface TaskMeta {
    /** One trial's record, read by the eval reporter. */
    trial?: TrialRecord;
    floors?: Floor[];
    /** A replayed trial's transcript, for the HTML report (the reporter reads the files otherwise). */
    transcript?: TrialTranscript;
    /** A dataset task's suite: its case ids, and those this run selected (--case, --cases). */
    cases?: { all: string[]; selected: string[] };
    /** `record --verify`: this trial's cassettes re-derived with the task's own scripts. */
    scripted?: ScriptedVerdict[];
  }
}

/**
 * Declare an eval task. It expands into one vitest test per variant x trial,
 * each replaying (or recording) its own cassette on fresh state.
 *
 * @example
 * defineTask({ agent: refundDesk, id: 'T6', title: 'Missing payment',
 *   prompt: 'Where is the refund record for order ORD2002?',
 *   check: ({ answer }) => expect(answer).toMatch(/screenshot/i) });
 */
export function defineTask(task: TaskDefinition): TaskDefinition {
  const variants = checkTaskDeclaration(task);
  const settings = readEvalSettings();
  const collecting = collectingFile();
  registerTask({
    id: task.id,
    suite: task.agent.suite,
    location: declarationSite(collecting?.filepath, settings.projectDir),
    collection: collecting,
    file: collecting?.filepath,
  });
  // A dataset is read (and checked) once, where the task is declared: a bad file is a load error.
  const cases = task.cases === undefined ? undefined : checkedCases(task, settings.projectDir);
  const selected = settings.selects(task.agent.suite, task.id);
  const { shard } = settings;
  // Position of each selected trial in this task, for dealing trials (and cases) to shards.
  let position = 0;
  const inShard = () =>
    !shard ||
    shardOfTrial(`${task.agent.suite}/${task.id}`, position++, shard.count) === shard.index;
  // --case names cases: a task without any is not selected then (--cases N only samples datasets).
  const runs = cases
    ? selectCases(task.id, cases, settings)
    : settings.cases.length > 0
      ? []
      : [undefined];
  const plan = variants.map((variant) => {
    const variantSelected =
      selected &&
      settings.selectsVariant(variant) &&
      settings.selectsRow(task.agent.suite, task.id, variant);
    const numbers = settings.recordedTrials
      ? recordedTrialNumbers(settings.fixturesDir, task.id, variant)
      : settings.trialNumbers;
    const trials = runs.flatMap((testCase) =>
      variantSelected ? numbers.filter(() => inShard()).map((trial) => ({ testCase, trial })) : [],
    );
    return { variant, variantSelected, trials };
  });
  // Refused before a test is declared: each trial is a test vitest holds until the run ends.
  if (cases) checkTaskTrials(task, runs.length, plan);
  if (
    task.agent.createHarness &&
    settings.mode !== 'verify' &&
    plan.some((row) => row.trials.length > 0)
  )
    preloadSdk();
  describe(task.agent.suite, () => {
    describe.concurrent(`${task.id} ${task.title}`, () => {
      // Vitest ends its worker right after the last test: what a timer a trial left throws
      // later is lost. Waited for here, it is one of the run's errors (stray-timers.ts).
      afterAll(() => settleStrayTimers(), STRAY_TIMER_WAIT_MS + 10_000);
      // The reporter learns a dataset's cases (a shard merge checks it has every selected one).
      const suite = TestRunner.getCurrentSuite().suite;
      if (cases && suite) {
        suite.meta.cases = {
          all: cases.map((testCase) => testCase.id),
          selected: runs.flatMap((testCase) => (testCase ? [testCase.id] : [])),
        };
      }
      for (const { variant, variantSelected, trials } of plan) {
        if (trials.length === 0) {
          // One skipped placeholder, not one per trial: the reporter still learns every task
          // and variant (the gate needs them), without thousands of empty tests at --trials 600.
          it.skip(`${variant} ${variantSelected ? 'in other shards' : 'not selected'}`, () => {});
        }
        for (const { testCase, trial } of trials) {
          const name = `${variant}${testCase ? ` ${testCase.id}` : ''} trial ${trial}`;
          const request = { task, variant, trial, settings, ...(testCase && { testCase }) };
          it(name, inTrialScope(`${task.id} ${name}`, trialTest(request)));
        }
      }
    });
  });
  return task;
}

/** One trial's test: run it, grade it (its check, scores and judges), leave the record in the test's meta. */
function trialTest(request: TrialRequest): (context: TestContext) => Promise<void> {
  const { task, variant, trial, settings, testCase } = request;
  return async (context) => {
    if (settings.mode === 'verify') {
      // record --verify only: the simulator's policies load for it, not for a replay.
      const { rederiveWithScripts } = await import('./verify/rederive-scripted.js');
      context.task.meta.scripted = await rederiveWithScripts(request);
      return;
    }
    context.task.meta.floors = task.floors ?? [];
    const result = await runTrial(request);
    context.task.meta.trial = result.record;
    // Bounded here, in the worker: a 30 MB answer is not copied to the main process to be cut there.
    if (result.transcript) {
      context.task.meta.transcript = boundTrial({
        record: result.record,
        transcript: result.transcript,
      }).transcript;
    }
    if (result.record.outcome === 'stale' || result.record.outcome === 'missing') {
      // Neither a pass nor a fail: the reporter lists it and the gate refuses it.
      context.skip(result.record.messages[0] ?? result.record.outcome);
    }
    if (result.error) throw result.error;
    if (!result.run) return;
    // The check, its scores and the judged checks (eval/grade).
    const graded = await gradeTrial({
      task,
      variant,
      trial,
      settings,
      ...(testCase && { testCase }),
      record: result.record,
      run: result.run,
      agentRecorded: result.recorded === true,
    });
    context.task.meta.trial = graded.record;
    if (graded.skip !== undefined) context.skip(graded.skip);
    if (graded.error !== undefined) throw graded.error;
  };
}

/**
 * `--trials all`: trials 1 to the highest recorded for this task and variant (over its cases,
 * for a dataset task). A gap is a missing trial, never skipped; a row with none has trial 1,
 * missing, so the gate names it.
 */
function recordedTrialNumbers(fixturesDir: string, task: string, variant: string): number[] {
  const found = inventoryFixtures(
    fixturesDir,
    (name, folder) => name === task && folder === variant,
  );
  const highest = Math.max(1, ...[...found.values()].flat());
  return Array.from({ length: highest }, (_, index) => index + 1);
}

/**
 * A harness agent's trials call the model through the SDK, which the package does not load on
 * import (a run of other agents never needs it). Its ~270 modules start loading here, when a
 * declared task will run such trials, while vitest collects the other eval files; the trials
 * await the same import. A failure surfaces there, as the trial's error.
 */
function preloadSdk(): void {
  import('@anthropic-ai/sdk').catch(() => {});
}

/** The eval file vitest is collecting, when defineTask runs inside a collection. */
function collectingFile(): { filepath: string } | undefined {
  try {
    return TestRunner.getCurrentSuite().file;
  } catch {
    return undefined;
  }
}
