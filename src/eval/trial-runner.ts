import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { createRealClock, createVirtualClock, type VirtualClock } from '../core/clock.js';
import { errorMessage, FixtureError } from '../core/errors.js';
import { cassettePath } from '../replay/cassette.js';
import type { Harness } from '../runtime/harness.js';
import { createAnthropicModel, type ModelClient } from '../runtime/model-client.js';
import { createRetryingModel } from '../runtime/retrying-model.js';
import { type RunResult, runAgent } from '../runtime/run-agent.js';
import { createJsonlTrace } from '../runtime/trace.js';
import type { TaskDefinition } from './define-task.js';
import { refuseSimulator } from './refuse-simulator.js';
import { replayClientFor, sharedLiveLimit, sharedReplayServer } from './replay-runtime.js';
import { rerecordCommand } from './rerecord.js';
import type { EvalSettings } from './settings.js';
import type { TrialRecord } from './trial-record.js';

export interface TrialRequest {
  task: TaskDefinition;
  variant: string;
  trial: number;
  settings: EvalSettings;
}

export interface TrialOutcome {
  record: TrialRecord;
  run?: RunResult;
  /** An unexpected failure of the trial itself (not of the agent under test). */
  error?: unknown;
}

/** Run one trial: replay (or record) its own cassette, on a fresh virtual clock and fresh state. */
export async function runTrial(request: TrialRequest): Promise<TrialOutcome> {
  const harness = request.task.agent.createHarness(request.variant, {
    projectDir: request.settings.projectDir,
  });
  try {
    return await runTrialWith(request, harness);
  } finally {
    // Per-trial resources (the debug agent's sandbox) go away with the trial, pass or fail.
    await harness.dispose?.();
  }
}

async function runTrialWith(request: TrialRequest, harness: Harness): Promise<TrialOutcome> {
  const { task, variant, trial, settings } = request;
  const file = cassettePath(settings.fixturesDir, task.id, variant, trial);
  const fixture = relative(settings.projectDir, file);
  const tracePath = join(settings.runsDir, task.id, variant, `trial-${trial}.jsonl`);
  const base: TrialRecord = {
    suite: task.agent.suite,
    task: task.id,
    title: task.title,
    variant,
    trial,
    outcome: 'errored',
    messages: [],
    modelLatenciesMs: [],
    fixture,
    tracePath: relative(settings.projectDir, tracePath),
  };
  const mode = task.mode ?? task.agent.mode ?? 'unattended';
  const approver = task.approver ?? task.agent.approver;
  let clock: VirtualClock | undefined;
  const run = (model: ModelClient, modelId: string, start: number) => {
    clock = createVirtualClock({ start });
    const trace = createJsonlTrace(tracePath);
    return runAgent({
      harness,
      model,
      modelId,
      prompt: task.prompt,
      clock,
      mode,
      ...(approver && { approver }),
      trace,
      runId: `${task.id}-${variant}-${trial}`,
      task: task.id,
    }).finally(trace.close);
  };
  const finish = (
    result: RunResult,
    latencies: number[],
    meta: Partial<TrialRecord>,
  ): TrialOutcome => ({
    record: {
      ...base,
      ...meta,
      outcome: 'passed',
      status: result.status,
      stats: result.stats,
      modelLatenciesMs: latencies,
    },
    run: result,
  });

  const recording = settings.mode === 'record' && !(settings.missingOnly && existsSync(file));
  if (recording) return record();

  const replayed = await sharedReplayServer().replay(
    {
      file,
      label: { suite: task.agent.suite, task: task.id, variant, trial },
      matching: settings.matching,
      // One read of the cassette: its source decides whether the command needs --simulated.
      rerecordCommand: (meta) =>
        rerecordCommand(task.id, variant, trial, meta?.source === 'simulator'),
      // Replay costs no wall time but reports the recorded model latency.
      onExchange: (exchange) => clock?.advance(exchange.latencyMs),
    },
    async (session) => {
      const { client, headers, release } = replayClientFor(session.fetch);
      const first = session.cassette.exchanges[0]?.response;
      const model = createAnthropicModel({
        client,
        headers,
        stream: first !== undefined && 'events' in first,
      });
      return run(
        model,
        settings.model ?? session.cassette.meta.model,
        Date.parse(session.cassette.meta.now),
      ).finally(release);
    },
  );
  if (replayed.problem) {
    const outcome = replayed.problem.code === 'fixture_missing' ? 'missing' : 'stale';
    return {
      record: {
        ...base,
        outcome,
        messages: [replayed.problem.message],
        rerecordCommand: replayed.rerecordCommand,
      },
    };
  }
  if (replayed.error !== undefined || !replayed.value) {
    return { record: { ...base, messages: [errorMessage(replayed.error)] }, error: replayed.error };
  }
  return finish(replayed.value, replayed.latenciesMs, {
    ...(replayed.meta && {
      source: replayed.meta.source,
      model: replayed.meta.model,
      recordedAt: replayed.meta.recordedAt,
    }),
  });

  async function record(): Promise<TrialOutcome> {
    const apiKey = process.env.ANTHROPIC_API_KEY;
    if (!apiKey)
      throw new FixtureError(
        'fixture_missing',
        'recording needs ANTHROPIC_API_KEY (or --simulated)',
      );
    const upstreamBaseURL = process.env.ANTHROPIC_BASE_URL || 'https://api.anthropic.com';
    const modelId = settings.model ?? 'claude-opus-5';
    const start = Date.now();
    const latencies: number[] = [];
    const recorded = await sharedReplayServer().record(
      {
        file,
        meta: {
          suite: task.agent.suite,
          task: task.id,
          variant,
          trial,
          now: new Date(start).toISOString(),
          model: modelId,
          source: settings.source,
        },
        upstreamBaseURL,
        secrets: [apiKey],
      },
      async (session) => {
        const client = new Anthropic({
          apiKey,
          baseURL: session.baseURL,
          fetch: settings.source === 'live' ? refuseSimulator(session.fetch) : session.fetch,
          // Retries live in the model layer below (honouring retry-after); the SDK's are off.
          maxRetries: 0,
          // The simulator seeds its habits per trial; the real API ignores this header.
          ...(settings.source === 'simulator' && {
            defaultHeaders: { 'x-harness-seed': `${task.id}/${variant}/${trial}` },
          }),
        });
        // Retries and the shared limit, but no fallback: a fallback changes the recorded model.
        const live = createRetryingModel({
          model: createAnthropicModel({ client }),
          clock: createRealClock(),
          limit: sharedLiveLimit(settings.concurrency),
        });
        const timed: ModelClient = {
          async createMessage(body, options) {
            const started = performance.now();
            try {
              return await live.createMessage(body, options);
            } finally {
              const ms = Math.round(performance.now() - started);
              latencies.push(ms);
              clock?.advance(ms);
            }
          },
        };
        const result = await run(timed, modelId, start);
        // A run the API failed is not a recording: throwing keeps the old cassette.
        if (result.status === 'error') throw new Error(result.detail ?? 'the model call failed');
        return result;
      },
    );
    if (recorded.error !== undefined || !recorded.value) {
      return {
        record: {
          ...base,
          messages: [`recording failed, nothing written: ${errorMessage(recorded.error)}`],
        },
        error: recorded.error,
      };
    }
    return finish(recorded.value, latencies, {
      source: settings.source,
      model: modelId,
      recordedAt: new Date().toISOString(),
    });
  }
}
