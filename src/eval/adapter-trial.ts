import type { AgentAdapter, AgentOutput } from '../adapters/types.js';
import type { RunResult } from '../runtime/run-agent.js';
import { emptyStats } from '../runtime/stop-rules.js';
import type { ToolCallRecord } from '../runtime/types.js';
import type { DriveOptions, TrialDriver } from './trial-driver.js';
import type { TrialRequest } from './trial-runner.js';

/** Drive an agent written without this runtime: its adapter gets the session's fetch and base URL. */
export function adapterDriver(adapter: AgentAdapter, request: TrialRequest): TrialDriver {
  const { task, variant, trial, settings } = request;
  return {
    provider: task.agent.provider ?? 'anthropic',
    async drive(options) {
      const timed = timedFetch(options);
      const output = await adapter({
        prompt: task.prompt,
        task: task.id,
        variant,
        trial,
        fetch: timed.fetch,
        baseURL: options.baseURL,
        apiKey: options.apiKey,
        model: options.modelId,
        clock: options.clock,
        signal: new AbortController().signal,
        projectDir: settings.projectDir,
      });
      return toRunResult(output, `${task.id}-${variant}-${trial}`, timed.calls());
    },
  };
}

/** Counts model calls; when recording, measures each one and advances the clock by it. */
function timedFetch(options: DriveOptions) {
  let calls = 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    calls += 1;
    const started = performance.now();
    try {
      return await options.fetch(input, init);
    } finally {
      if (options.latencies) {
        const ms = Math.round(performance.now() - started);
        options.latencies.push(ms);
        options.clock.advance(ms);
      }
    }
  };
  return { fetch, calls: () => calls };
}

/** The adapter's answer in the runtime's terms, so checks and reports treat every agent alike. */
export function toRunResult(output: AgentOutput, runId: string, steps: number): RunResult {
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
  return {
    runId,
    status: output.status ?? 'done',
    answer: output.answer,
    messages: [],
    toolCalls,
    stats,
    store: new Map(),
  };
}
