import { afterAll, describe, it, type TestContext, TestRunner } from 'vitest';
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
              let returned: unknown;
              try {
                returned = await task.check({
                  answer: result.run.answer,
                  result: result.run,
                  stats: result.run.stats,
                  toolCalls: result.run.toolCalls,
                  variant,
                  trial,
                });
              } catch (error) {
                const assertion = error instanceof Error && error.name === 'AssertionError';
                context.task.meta.trial = {
                  ...result.record,
                  outcome: assertion ? 'failed' : 'errored',
                  messages: [error instanceof Error ? error.message : String(error)],
                };
                throw error;
              }
              const refused = refusedBy(returned);
              if (refused) {
                context.task.meta.trial = { ...result.record, ...refused };
                throw new Error(refused.messages[0]);
              }
              context.task.meta.trial = { ...result.record, outcome: 'passed' };
            }),
          );
        }
      }
    });
  });
  return task;
}

/**
 * What a check's return value says: `false` is a failed trial (a predicate such as
 * `({ answer }) => answer.includes('refund')`), nothing or `true` a pass, anything else a
 * broken check (`0`, `null`, an object), which errors the trial instead of passing it.
 */
function refusedBy(
  returned: unknown,
): (Pick<TrialRecord, 'outcome' | 'messages'> & { messages: [string] }) | undefined {
  if (returned === undefined || returned === true) return undefined;
  if (returned === false) return { outcome: 'failed', messages: ['the check returned false'] };
  return {
    outcome: 'errored',
    messages: [
      `the check returned ${describeValue(returned)}: return nothing (assert with expect), true or false`,
    ],
  };
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string')
    return `'${value.length > 40 ? `${value.slice(0, 40)}…` : value}' (text)`;
  if (typeof value === 'number' || typeof value === 'bigint') return `${value} (a number)`;
  return `a value of type ${typeof value}`;
}

/** The eval file vitest is collecting, when defineTask runs inside a collection. */
function collectingFile(): { filepath: string } | undefined {
  try {
    return TestRunner.getCurrentSuite().file;
  } catch {
    return undefined;
  }
}
