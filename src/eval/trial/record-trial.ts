import { existsSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { createVirtualClock } from '../../core/clock.js';
import { ConfigError, errorMessage } from '../../core/errors.js';
import { outsideProblem } from '../../core/inside-folder.js';
import { maskSecretValue } from '../../core/secret-values.js';
import { readCassette } from '../../replay/cassette-file.js';
import { cassetteHash } from '../../replay/cassette-hash.js';
import { recordingModel } from '../spec/model-choice.js';
import type { TrialRecord } from '../spec/trial-record.js';
import { sharedRecordServer } from './replay-runtime.js';
import type { TrialDriver, TrialRequest } from './trial-driver.js';
import { finishedTrial, type TrialResult } from './trial-result.js';

/**
 * Record the trial into its own cassette (`file`): its driver runs against the upstream (the
 * live API, or a simulator with `--simulated`) through msw, which tapes every exchange. A run
 * that fails keeps the old cassette.
 */
export async function recordTrial(
  request: TrialRequest,
  driver: TrialDriver,
  base: TrialRecord,
  file: string,
): Promise<TrialResult> {
  const { task, variant, trial, settings, testCase } = request;
  const folder = dirname(file);
  const outside = await outsideProblem(
    settings.projectDir,
    folder,
    relative(settings.projectDir, folder),
    'recording',
  );
  if (outside) {
    return { record: { ...base, messages: [outside] }, error: new ConfigError(outside) };
  }
  const taken = await otherSuitesCassette(file, task.agent.suite);
  if (taken !== undefined) {
    const message = `${base.fixture} was recorded for suite ${taken}'s task ${task.id}, not suite ${task.agent.suite}'s: two suites declare task id '${task.id}' and share fixtures/${task.id}/, so nothing was recorded; rename one of them`;
    return { record: { ...base, messages: [message] }, error: new ConfigError(message) };
  }
  // Loaded when recording only: a replay never starts an upstream (the simulator and its scripts).
  const { liveApiOf, openUpstream } = await import('./upstream.js');
  const upstream = await openUpstream({
    provider: driver.provider,
    baseUrlEnv: task.agent.baseUrlEnv,
    apiKeyEnv: task.agent.apiKeyEnv,
    script: task.modelScript ?? task.agent.modelScript,
    task: task.id,
    variant,
    trial,
    ...(testCase && { testCase: testCase.id }),
    settings,
  });
  // A server may echo the key in an error: this worker's traces mask its exact value.
  maskSecretValue(upstream.apiKey, liveApiOf({ ...task.agent, provider: driver.provider }).keyName);
  const modelId = recordingModel(settings.models, { ...task.agent, provider: driver.provider });
  const start = Date.now();
  const latencies: number[] = [];
  const recorded = await (await sharedRecordServer())
    .record(
      {
        file,
        meta: {
          suite: task.agent.suite,
          task: task.id,
          variant,
          ...(testCase && { case: testCase.id }),
          trial,
          now: new Date(start).toISOString(),
          model: modelId,
          provider: driver.provider,
          source: settings.source,
        },
        upstreamBaseURL: upstream.baseURL,
        secrets: [upstream.apiKey],
      },
      async (session) => {
        const result = await driver.drive({
          fetch: upstream.wrap(session.fetch),
          baseURL: session.baseURL,
          apiKey: upstream.apiKey,
          modelId,
          clock: createVirtualClock({ start }),
          latencies,
          ...(session.exchangeLatencies && { answeredLatencies: session.exchangeLatencies }),
        });
        // Nothing answered offline, or a live recording met the simulator: thrown before the
        // cassette is written, so the old one stays (an agent that shrugs the 400 off included).
        const problem = upstream.problem();
        if (problem) throw problem;
        // A run the API failed is not a recording: throwing keeps the old cassette.
        if (result.status === 'error') throw new Error(result.detail ?? 'the model call failed');
        return result;
      },
    )
    .finally(() => upstream.close());
  // Nothing answered offline: one line that says how to add a model script, instead of the API error.
  const error = upstream.problem() ?? recorded.error;
  if (error !== undefined || !recorded.value) {
    return {
      record: { ...base, messages: [`recording failed, nothing written: ${errorMessage(error)}`] },
      error,
    };
  }
  return finishedTrial(base, recorded.value, latencies, {
    source: settings.source,
    written: true,
    provider: driver.provider,
    model: modelId,
    recordedAt: recorded.cassette?.meta.recordedAt ?? new Date().toISOString(),
    host: recorded.cassette?.meta.host ?? new URL(upstream.baseURL).host,
    ...(recorded.cassette && { cassetteHash: cassetteHash(recorded.cassette) }),
  });
}

/**
 * The suite of another suite's task that recorded this cassette, if one did: the last guard
 * against one suite's recording replacing another's when the same task id is declared in both
 * and the eval files ran isolated, out of sight of each other's declarations.
 */
async function otherSuitesCassette(file: string, suite: string): Promise<string | undefined> {
  if (!existsSync(file)) return undefined;
  try {
    const recorded = (await readCassette(file)).meta.suite;
    return recorded !== undefined && recorded !== suite ? recorded : undefined;
  } catch {
    // A corrupt cassette is what re-recording fixes.
    return undefined;
  }
}
