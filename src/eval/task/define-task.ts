import { afterAll, describe, it, type TestContext, TestRunner } from 'vitest';
import { gradeTrial } from '../grade/grade-trial.js';
import type { TrialTranscript } from '../report/transcript-formats.js';
import { readEvalSettings } from '../run/settings.js';
import { shardOfTrial } from '../shard/shard.js';
import { inTrialScope, STRAY_TIMER_WAIT_MS, settleStrayTimers } from '../trial/stray-timers.js';
import type { Floor, TrialRecord } from '../trial/trial-record.js';
import { runTrial } from '../trial/trial-runner.js';
import { checkTaskDeclaration } from './task-declaration.js';
import type { TaskDefinition } from './task-definition.js';
import { declarationSite, registerTask } from './task-registry.js';

declare module 'vitest' {
  interface TaskMeta {
    /** One trial's record, read by the eval reporter. */
    trial?: TrialRecord;
    floors?: Floor[];
    /** A replayed trial's transcript, for the HTML report (the reporter reads the files otherwise). */
    transcript?: TrialTranscript;
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
  const selected = settings.selects(task.agent.suite, task.id);
  const { shard } = settings;
  // Position of each selected trial in this task, for dealing trials to shards.
  let position = 0;
  const inShard = () =>
    !shard ||
    shardOfTrial(`${task.agent.suite}/${task.id}`, position++, shard.count) === shard.index;
  describe(task.agent.suite, () => {
    describe.concurrent(`${task.id} ${task.title}`, () => {
      // Vitest ends its worker right after the last test: what a timer a trial left throws
      // later is lost. Waited for here, it is one of the run's errors (stray-timers.ts).
      afterAll(() => settleStrayTimers(), STRAY_TIMER_WAIT_MS + 10_000);
      for (const variant of variants) {
        const variantSelected = selected && settings.selectsVariant(variant);
        const trials = variantSelected ? settings.trialNumbers.filter(() => inShard()) : [];
        if (trials.length === 0) {
          // One skipped placeholder, not one per trial: the reporter still learns every task
          // and variant (the gate needs them), without thousands of empty tests at --trials 600.
          it.skip(`${variant} ${variantSelected ? 'in other shards' : 'not selected'}`, () => {});
        }
        for (const trial of trials) {
          const name = `${variant} trial ${trial}`;
          it(
            name,
            inTrialScope(`${task.id} ${name}`, async (context: TestContext) => {
              context.task.meta.floors = task.floors ?? [];
              const result = await runTrial({ task, variant, trial, settings });
              context.task.meta.trial = result.record;
              if (result.transcript) context.task.meta.transcript = result.transcript;
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
                record: result.record,
                run: result.run,
                agentRecorded: result.recorded === true,
              });
              context.task.meta.trial = graded.record;
              if (graded.skip !== undefined) context.skip(graded.skip);
              if (graded.error !== undefined) throw graded.error;
            }),
          );
        }
      }
    });
  });
  return task;
}

/** The eval file vitest is collecting, when defineTask runs inside a collection. */
function collectingFile(): { filepath: string } | undefined {
  try {
    return TestRunner.getCurrentSuite().file;
  } catch {
    return undefined;
  }
}
