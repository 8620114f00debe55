import { createRealClock } from '../../core/clock.js';
import {
  createAnthropicModel,
  type ModelClient,
  modelTimeoutFrom,
} from '../../model-api/model-client.js';
import { createRetryingModel } from '../../model-api/retrying-model.js';
import type { Harness } from '../../runtime/harness.js';
import { type RunResult, runAgent } from '../../runtime/run-agent.js';
import { createBufferedJsonlTrace } from '../../runtime/trace.js';
import { createLatencyMeter, type LatencyMeter } from './latency-meter.js';
import { replayClientFor, sharedLiveLimit } from './replay-runtime.js';
import {
  type DriveOptions,
  promptOf,
  runIdOf,
  type TrialDriver,
  type TrialRequest,
  tracePathOf,
} from './trial-driver.js';

/** This runtime's loop (runAgent) around the agent's harness variant. */
export function harnessDriver(request: TrialRequest, harness: Harness): TrialDriver {
  const { task, settings } = request;
  const mode = task.mode ?? task.agent.mode ?? 'unattended';
  const approver = task.approver ?? task.agent.approver;
  const tracePath = tracePathOf(request);
  let trace: ReturnType<typeof createBufferedJsonlTrace> | undefined;
  return {
    provider: 'anthropic',
    tracePath,
    traceEvents: () => trace?.events() ?? [],
    ...(harness.dispose && { dispose: () => harness.dispose?.() }),
    async drive(options) {
      if (!options.latencies) {
        // Replay: one SDK client per worker, routed to this trial's cassette by a header.
        const { client, headers, release } = await replayClientFor(options.fetch);
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
      const { default: Anthropic } = await import('@anthropic-ai/sdk');
      const client = new Anthropic({
        apiKey: options.apiKey,
        baseURL: options.baseURL,
        fetch: options.fetch,
        // Retries live in the model layer below (honouring retry-after); the SDK's are off.
        maxRetries: 0,
      });
      return run(
        meteredModel(
          // Retries and the shared limit, but no fallback: a fallback changes the recorded model.
          createRetryingModel({
            model: createAnthropicModel({ client, ...(timeoutMs !== undefined && { timeoutMs }) }),
            clock: createRealClock(),
            limit: sharedLiveLimit(settings.concurrency),
          }),
          createLatencyMeter(options.clock, options.latencies),
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
      prompt: promptOf(request),
      clock: options.clock,
      mode,
      ...(approver && { approver }),
      trace: runTrace,
      runId: runIdOf(request),
      task: task.id,
    }).finally(runTrace.flush);
  }
}

/** Live calls, under the trial's latency meter (see latency-meter.ts). */
function meteredModel(live: ModelClient, meter: LatencyMeter): ModelClient {
  return { createMessage: (body, options) => meter.time(() => live.createMessage(body, options)) };
}
