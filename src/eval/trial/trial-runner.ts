import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { createRealClock, createVirtualClock, type VirtualClock } from '../../core/clock.js';
import { ConfigError, errorMessage } from '../../core/errors.js';
import { maskSecretValue } from '../../core/secret-values.js';
import { type Cassette, cassettePath } from '../../replay/cassette.js';
import { readCassette } from '../../replay/cassette-file.js';
import { cassetteHash } from '../../replay/cassette-hash.js';
import { networkRefusalIn } from '../../replay/network-guard.js';
import type { Harness } from '../../runtime/harness.js';
import {
  createAnthropicModel,
  type ModelClient,
  modelTimeoutFrom,
} from '../../runtime/model-client.js';
import { createRetryingModel } from '../../runtime/retrying-model.js';
import { type RunResult, runAgent } from '../../runtime/run-agent.js';
import { createBufferedJsonlTrace } from '../../runtime/trace.js';
import { rerecordCommand } from '../fixtures/rerecord.js';
import { decodeTranscript, type Transcript } from '../report/transcript.js';
import type { EvalSettings } from '../run/settings.js';
import type { TaskDefinition } from '../task/define-task.js';
import { adapterDriver } from './adapter-trial.js';
import {
  replayClientFor,
  replayRefusingNetwork,
  sharedLiveLimit,
  sharedRecordServer,
} from './replay-runtime.js';
import type { DriveOptions, TrialDriver } from './trial-driver.js';
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
  /**
   * A replayed run's conversation, decoded from the cassette it replayed and the trace it
   * wrote: the HTML report's transcript, without reading both files again on the main thread.
   */
  transcript?: Transcript;
}

/** Run one trial: replay (or record) its own cassette, on a fresh virtual clock and fresh state. */
export async function runTrial(request: TrialRequest): Promise<TrialOutcome> {
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

async function runTrialWith(request: TrialRequest, driver: TrialDriver): Promise<TrialOutcome> {
  const { task, variant, trial, settings } = request;
  const file = cassettePath(settings.fixturesDir, task.id, variant, trial);
  const fixture = relative(settings.projectDir, file);
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
    ...(driver.tracePath && { tracePath: relative(settings.projectDir, driver.tracePath) }),
  };
  let clock: VirtualClock | undefined;
  const startClock = (start: number) => {
    clock = createVirtualClock({ start });
    return clock;
  };
  const finish = (
    result: RunResult,
    latencies: number[],
    meta: Partial<TrialRecord>,
  ): TrialOutcome => {
    const record: TrialRecord = {
      ...base,
      ...meta,
      outcome: 'passed',
      status: result.status,
      stats: result.stats,
      modelLatenciesMs: latencies,
    };
    // A run that failed is no verdict, replayed as when recorded (where it keeps no cassette):
    // its check does not run, and the trial counts as errored.
    if (result.status === 'error') {
      const message = `the run ended with status error: ${result.detail ?? 'it gave no detail'}`;
      return {
        record: { ...record, outcome: 'errored', messages: [message] },
        error: new Error(message),
      };
    }
    return { record, run: result };
  };

  const recording = settings.mode === 'record' && !(settings.missingOnly && existsSync(file));
  if (recording) return record();

  let replayedHash: string | undefined;
  let replayedCassette: Cassette | undefined;
  // A replay run refuses the network while its trials run; a recording run (which replays
  // the trials it keeps, --missing-only) has msw listening instead.
  const replay: typeof replayRefusingNetwork =
    settings.mode === 'record' ? (await sharedRecordServer()).replay : replayRefusingNetwork;
  const replayed = await replay(
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
      replayedHash = cassetteHash(session.cassette);
      replayedCassette = session.cassette;
      const first = session.cassette.exchanges[0]?.response;
      return driver.drive({
        fetch: session.fetch,
        baseURL: session.baseURL,
        apiKey: 'replay-without-key',
        modelId: settings.model ?? session.cassette.meta.model,
        clock: startClock(Date.parse(session.cassette.meta.now)),
        stream: first !== undefined && 'events' in first,
      });
    },
  );
  // Where the replayed answers came from, failed and stale trials too: the report's header names it.
  const provenance = {
    ...(replayed.meta && {
      source: replayed.meta.source,
      model: replayed.meta.model,
      recordedAt: replayed.meta.recordedAt,
      host: replayed.meta.host,
    }),
    ...(replayedHash !== undefined && { cassetteHash: replayedHash }),
  };
  // The run reached for the network: that is the fault, not the exchanges it left unused.
  const refused = networkRefusalIn(replayed.error);
  if (refused) {
    return { record: { ...base, ...provenance, messages: [refused.message] }, error: refused };
  }
  if (replayed.problem) {
    const outcome = replayed.problem.code === 'fixture_missing' ? 'missing' : 'stale';
    return {
      record: {
        ...base,
        ...provenance,
        outcome,
        messages: [replayed.problem.message],
        rerecordCommand: replayed.rerecordCommand,
      },
    };
  }
  if (replayed.error !== undefined || !replayed.value) {
    const message = errorMessage(replayed.error);
    return { record: { ...base, ...provenance, messages: [message] }, error: replayed.error };
  }
  const outcome = finish(replayed.value, replayed.latenciesMs, provenance);
  if (replayedCassette) {
    try {
      outcome.transcript = decodeTranscript(replayedCassette, driver.traceEvents?.() ?? []);
    } catch {
      // The report's transcript, not the trial: the reporter reads the files instead and says
      // why it is unavailable.
    }
  }
  return outcome;

  async function record(): Promise<TrialOutcome> {
    const taken = await otherSuitesCassette(file, task.agent.suite);
    if (taken !== undefined) {
      const message = `${fixture} was recorded for suite ${taken}'s task ${task.id}, not suite ${task.agent.suite}'s: two suites declare task id '${task.id}' and share fixtures/${task.id}/, so nothing was recorded; rename one of them`;
      return { record: { ...base, messages: [message] }, error: new ConfigError(message) };
    }
    // Loaded when recording only: a replay never starts an upstream (the simulator and its scripts).
    const { openUpstream } = await import('./upstream.js');
    const upstream = await openUpstream({
      provider: driver.provider,
      script: task.modelScript ?? task.agent.modelScript,
      task: task.id,
      variant,
      trial,
      settings,
    });
    // A server may echo the key in an error: this worker's traces mask its exact value.
    maskSecretValue(
      upstream.apiKey,
      driver.provider === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY',
    );
    const modelId = settings.model ?? 'claude-opus-5';
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
            trial,
            now: new Date(start).toISOString(),
            model: modelId,
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
            clock: startClock(start),
            latencies,
            ...(session.exchangeLatencies && { answeredLatencies: session.exchangeLatencies }),
          });
          // A run the API failed is not a recording: throwing keeps the old cassette.
          if (result.status === 'error') throw new Error(result.detail ?? 'the model call failed');
          return result;
        },
      )
      .finally(() => upstream.close());
    // Nothing answered offline: one line that says how to add a model script, instead of the API error.
    const error = upstream.unscripted() ?? recorded.error;
    if (error !== undefined || !recorded.value) {
      return {
        record: {
          ...base,
          messages: [`recording failed, nothing written: ${errorMessage(error)}`],
        },
        error,
      };
    }
    return finish(recorded.value, latencies, {
      source: settings.source,
      model: modelId,
      recordedAt: recorded.cassette?.meta.recordedAt ?? new Date().toISOString(),
      host: recorded.cassette?.meta.host ?? new URL(upstream.baseURL).host,
      ...(recorded.cassette && { cassetteHash: cassetteHash(recorded.cassette) }),
    });
  }
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

/** This runtime's loop (runAgent) around the agent's harness variant. */
function harnessDriver(request: TrialRequest, harness: Harness): TrialDriver {
  const { task, variant, trial, settings } = request;
  const mode = task.mode ?? task.agent.mode ?? 'unattended';
  const approver = task.approver ?? task.agent.approver;
  const tracePath = join(settings.runsDir, task.id, variant, `trial-${trial}.jsonl`);
  let trace: ReturnType<typeof createBufferedJsonlTrace> | undefined;
  return {
    provider: 'anthropic',
    tracePath,
    traceEvents: () => trace?.events() ?? [],
    ...(harness.dispose && { dispose: () => harness.dispose?.() }),
    async drive(options) {
      if (!options.latencies) {
        // Replay: one SDK client per worker, routed to this trial's cassette by a header.
        const { client, headers, release } = replayClientFor(options.fetch);
        try {
          return await run(
            createAnthropicModel({ client, headers, stream: options.stream === true }),
            options,
          );
        } finally {
          release();
        }
      }
      // Checked once at start-up by the record CLI; a bad value never gets this far there.
      const timeoutMs = modelTimeoutFrom(process.env);
      const client = new Anthropic({
        apiKey: options.apiKey,
        baseURL: options.baseURL,
        fetch: options.fetch,
        // Retries live in the model layer below (honouring retry-after); the SDK's are off.
        maxRetries: 0,
      });
      return run(
        timedModel(
          // Retries and the shared limit, but no fallback: a fallback changes the recorded model.
          createRetryingModel({
            model: createAnthropicModel({ client, ...(timeoutMs !== undefined && { timeoutMs }) }),
            clock: createRealClock(),
            limit: sharedLiveLimit(settings.concurrency),
          }),
          options.latencies,
          options.clock,
        ),
        options,
      );
    },
  };
  function run(model: ModelClient, options: DriveOptions): Promise<RunResult> {
    const runTrace = createBufferedJsonlTrace(tracePath);
    trace = runTrace;
    return runAgent({
      harness,
      model,
      modelId: options.modelId,
      prompt: task.prompt,
      clock: options.clock,
      mode,
      ...(approver && { approver }),
      trace: runTrace,
      runId: `${task.id}-${variant}-${trial}`,
      task: task.id,
    }).finally(runTrace.flush);
  }
}

/** Live calls, measured: the latency is recorded and the run's virtual clock advances by it. */
function timedModel(live: ModelClient, latencies: number[], clock: VirtualClock): ModelClient {
  return {
    async createMessage(body, options) {
      const started = performance.now();
      try {
        return await live.createMessage(body, options);
      } finally {
        const ms = Math.round(performance.now() - started);
        latencies.push(ms);
        clock.advance(ms);
      }
    },
  };
}
