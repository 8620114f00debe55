import type { AgentAdapter, AgentOutput } from '../../adapters/types.js';
import { type Clock, createRealClock, type VirtualClock } from '../../core/clock.js';
import { ConfigError } from '../../core/errors.js';
import { modelTimeoutFrom } from '../../model-api/model-client.js';
import { RunStatusSchema } from '../../runtime/journal/records.js';
import type { RunResult } from '../../runtime/run-agent.js';
import { emptyStats } from '../../runtime/stop-rules.js';
import {
  createJsonlTrace,
  type TraceEvent,
  type TraceSink,
  toolCallEvent,
} from '../../runtime/trace.js';
import type { RunStatus, ToolCallRecord } from '../../runtime/types.js';
import { createLatencyMeter } from './latency-meter.js';
import {
  promptOf,
  runIdOf,
  type TrialDriver,
  type TrialRequest,
  tracePathOf,
} from './trial-driver.js';

/** Drive an agent written without this runtime: its adapter gets the session's fetch and base URL. */
export function adapterDriver(adapter: AgentAdapter, request: TrialRequest): TrialDriver {
  const { task, variant, trial, settings } = request;
  const tracePath = tracePathOf(request);
  let written: TraceEvent[] = [];
  return {
    provider: task.agent.provider ?? 'anthropic',
    tracePath,
    traceEvents: () => written,
    async drive(options) {
      const startedAt = options.clock.now();
      // record --model-timeout (the CLI checked it) reaches adapters as it reaches this runtime's agents.
      const modelTimeoutMs = modelTimeoutFrom(process.env);
      const measured = options.latencies ? [] : undefined;
      const meter = createLatencyMeter(options.clock, measured);
      const output = await adapter({
        prompt: promptOf(request),
        task: task.id,
        variant,
        trial,
        fetch: (input, init) => meter.time(() => options.fetch(input, init)),
        baseURL: options.baseURL,
        apiKey: options.apiKey,
        model: options.modelId,
        clock: options.clock,
        // Recording: a live API's retry-after must really pass before the adapter retries.
        retryClock: options.latencies ? realWaits(options.clock) : options.clock,
        ...(modelTimeoutMs !== undefined && { modelTimeoutMs }),
        signal: new AbortController().signal,
        projectDir: settings.projectDir,
      });
      const runId = runIdOf(request);
      // Recording: a retried attempt is no model call, as in the replay of the cassette. A run
      // that failed is not recorded, and its detail says why better than the tape's verdict
      // on its last answer would.
      const failed = typeof output === 'object' && output !== null && output.status === 'error';
      const answered = failed ? undefined : await options.answeredLatencies?.();
      options.latencies?.push(...(answered ?? measured ?? []));
      const result = toRunResult(
        output,
        runId,
        answered?.length ?? meter.calls(),
        answered ? answered.reduce((sum, ms) => sum + ms, 0) : meter.modelMs(),
      );
      const file = createJsonlTrace(tracePath);
      // What the file gets, kept for the report's transcript (the trial hands it over).
      written = [];
      const trace: TraceSink = {
        write: (event) => {
          written.push(event);
          file.write(event);
        },
      };
      writeTrace(trace, result, {
        run_id: runId,
        task: task.id,
        variant,
        model: options.modelId,
        start: startedAt,
        end: options.clock.now(),
      });
      return result;
    },
  };
}

/** Sleeps in real time, then moves the run's virtual clock on by what it slept. */
function realWaits(clock: VirtualClock): Clock {
  const real = createRealClock();
  return {
    now: () => clock.now(),
    sleep: async (ms, signal) => {
      await real.sleep(ms, signal);
      clock.advance(ms);
    },
  };
}

/** The run as JSONL trace events (no tool result text: the adapter does not report it anyway). */
function writeTrace(
  trace: TraceSink,
  result: RunResult,
  run: {
    run_id: string;
    task: string;
    variant: string;
    model: string;
    /** On the run's clock, in ms: when the adapter was called, and when it returned. */
    start: number;
    end: number;
  },
): void {
  trace.write({
    type: 'run_start',
    run_id: run.run_id,
    task: run.task,
    variant: run.variant,
    model: run.model,
    mode: 'adapter',
    system_chars: 0,
    ts: new Date(run.start).toISOString(),
  });
  // toRunResult gave each call 0 ms and 0 result characters: the adapter does not report them.
  for (const call of result.toolCalls) trace.write(toolCallEvent(call));
  trace.write({
    type: 'run_end',
    status: result.status,
    stats: result.stats,
    ts: new Date(run.end).toISOString(),
  });
}

const RUN_STATUSES: readonly RunStatus[] = RunStatusSchema.options;

/** Adapters are the user's code, unchecked by types at run time: a wrong shape is refused, named. */
function checkOutput(output: AgentOutput): void {
  const shape = 'return { answer: string, toolCalls?, usage?, status?, detail? }';
  if (typeof output !== 'object' || output === null) {
    throw new ConfigError(`the agent's run returned ${String(output)}: ${shape}`);
  }
  if (typeof output.answer !== 'string') {
    throw new ConfigError(
      `the agent's run returned an answer of type ${typeof output.answer}: ${shape}`,
    );
  }
  if (output.status !== undefined && !RUN_STATUSES.includes(output.status)) {
    throw new ConfigError(
      `the agent's run returned status '${String(output.status)}': use one of ${RUN_STATUSES.join(', ')} (error for a run that failed)`,
    );
  }
}

/** The adapter's answer in the runtime's terms, so checks and reports treat every agent alike. */
export function toRunResult(
  output: AgentOutput,
  runId: string,
  steps: number,
  modelMs = 0,
): RunResult {
  checkOutput(output);
  const toolCalls: ToolCallRecord[] = (output.toolCalls ?? []).map((call, index) => ({
    step: 0,
    id: `call-${index + 1}`,
    tool: call.name,
    input: call.input,
    decision: call.approved ? 'ask_approved' : 'allow',
    isError: call.isError === true,
    ms: 0,
    resultChars: 0,
    effect: call.effect,
  }));
  const stats = emptyStats();
  stats.steps = steps;
  stats.toolCalls = toolCalls.length;
  stats.toolErrors = toolCalls.filter((call) => call.isError).length;
  stats.unconfirmedWrites = (output.toolCalls ?? []).filter(
    (call) => call.effect === 'write' && !call.approved && !call.isError,
  ).length;
  stats.inputTokens = output.usage?.inputTokens ?? 0;
  stats.outputTokens = output.usage?.outputTokens ?? 0;
  stats.cacheReadTokens = output.usage?.cacheReadTokens ?? 0;
  stats.cacheWriteTokens = output.usage?.cacheWriteTokens ?? 0;
  stats.modelMs = modelMs;
  return {
    runId,
    status: output.status ?? 'done',
    ...(output.detail !== undefined && { detail: output.detail }),
    answer: output.answer,
    messages: [],
    toolCalls,
    stats,
    store: new Map(),
  };
}
