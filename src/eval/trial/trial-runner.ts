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
  const result = await withDriver(request, (driver) => runTrialWith(request, driver));
  // record --until-decided keeps what is recorded and current, and records what the change made
  // stale, on a fresh driver: the replay that found it stale may have run tools.
  const { settings } = request;
  const restale =
    settings.mode === 'record' &&
    settings.missingOnly === 'or-stale' &&
    result.recorded !== true &&
    result.record.outcome === 'stale' &&
    !result.record.fixtureProblem;
  if (!restale) return result;
  return withDriver(request, (driver) => recordWith(request, driver));
}

async function withDriver(
  request: TrialRequest,
  run: (driver: TrialDriver) => Promise<TrialResult>,
): Promise<TrialResult> {
  const { agent } = request.task;
  const driver = agent.run
    ? adapterDriver(agent.run, request)
    : harnessDriver(
        request,
        agent.createHarness!(request.variant, { projectDir: request.settings.projectDir }),
      );
  try {
    return await run(driver);
  } finally {
    // Per-trial resources (the debug agent's sandbox) go away with the trial, pass or fail.
    await driver.dispose?.();
  }
}

function runTrialWith(request: TrialRequest, driver: TrialDriver): Promise<TrialResult> {
  const { settings } = request;
  const { file, base } = trialBase(request, driver);
  // record --judge-only replays the agent's cassette and records only its judge.
  const recording =
    settings.mode === 'record' &&
    !settings.judge.only &&
    !(settings.missingOnly !== false && existsSync(file));
  return recording ? recordWith(request, driver) : replayTrial(request, driver, base, file);
}

function recordWith(request: TrialRequest, driver: TrialDriver): Promise<TrialResult> {
  const { file, base } = trialBase(request, driver);
  return recordTrial(request, driver, base, file).then((result) => ({ ...result, recorded: true }));
}

/** The trial's cassette and the record it starts from. */
function trialBase(request: TrialRequest, driver: TrialDriver) {
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
    ...(testCase?.expected !== undefined && { expected: expectedText(testCase.expected) }),
    trial,
    baseline: baselineOf(agent),
    outcome: 'errored',
    messages: [],
    modelLatenciesMs: [],
    fixture: relative(settings.projectDir, file),
    ...(driver.tracePath && { tracePath: relative(settings.projectDir, driver.tracePath) }),
  };
  return { file, base };
}

/** A case's `expected` as the report shows it: a string as it is, anything else as JSON. */
function expectedText(expected: unknown): string {
  if (typeof expected === 'string') return expected;
  try {
    return JSON.stringify(expected, null, 2) ?? String(expected);
  } catch {
    return String(expected);
  }
}
