import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { cassettePath } from '../../replay/cassette.js';
import { baselineOf } from '../spec/agent-spec.js';
import type { TrialRecord } from '../spec/trial-record.js';
import { adapterDriver } from './adapter-driver.js';
import { harnessDriver } from './harness-driver.js';
import { recordTrial } from './record-trial.js';
import { replayTrial } from './replay-trial.js';
import type { TrialDriver, TrialRequest } from './trial-driver.js';
import type { TrialResult } from './trial-result.js';

/** Run one trial: replay (or record) its own cassette, on a fresh virtual clock and fresh state. */
export async function runTrial(request: TrialRequest): Promise<TrialResult> {
  const { agent } = request.task;
  const driver = agent.run
    ? adapterDriver(agent.run, request)
    : harnessDriver(
        request,
        agent.createHarness!(request.variant, { projectDir: request.settings.projectDir }),
      );
  try {
    return await runTrialWith(request, driver);
  } finally {
    // Per-trial resources (the debug agent's sandbox) go away with the trial, pass or fail.
    await driver.dispose?.();
  }
}

function runTrialWith(request: TrialRequest, driver: TrialDriver): Promise<TrialResult> {
  const { task, variant, trial, settings, testCase } = request;
  const { agent } = task;
  const file = cassettePath(settings.fixturesDir, task.id, variant, trial, testCase?.id);
  // Errored until the run says otherwise.
  const base: TrialRecord = {
    suite: task.agent.suite,
    task: task.id,
    title: task.title,
    variant,
    ...(testCase && { case: testCase.id }),
    trial,
    baseline: baselineOf(agent),
    outcome: 'errored',
    messages: [],
    modelLatenciesMs: [],
    fixture: relative(settings.projectDir, file),
    ...(driver.tracePath && { tracePath: relative(settings.projectDir, driver.tracePath) }),
  };
  // record --judge-only replays the agent's cassette and records only its judge.
  const recording =
    settings.mode === 'record' &&
    !settings.judge.only &&
    !(settings.missingOnly && existsSync(file));
  return recording
    ? recordTrial(request, driver, base, file).then((result) => ({ ...result, recorded: true }))
    : replayTrial(request, driver, base, file);
}
