import { randomUUID } from 'node:crypto';
import type Anthropic from '@anthropic-ai/sdk';
import { canonicalJson } from '../core/canonical-json.js';
import type { Clock } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import { toAnthropicTools } from './define-tool.js';
import type { Harness } from './harness.js';
import { trimHistory } from './history.js';
import type { MessageRequest, ModelClient } from './model-client.js';
import { createToolPipeline } from './pipeline.js';
import { redactForTrace, type TraceSink } from './trace.js';
import type {
  Approver,
  RunMode,
  RunState,
  RunStats,
  RunStatus,
  ToolCall,
  ToolCallRecord,
} from './types.js';

export interface RunAgentOptions {
  harness: Harness;
  model: ModelClient;
  modelId: string;
  prompt: string;
  clock: Clock;
  mode: RunMode;
  approver?: Approver;
  trace?: TraceSink;
  runId?: string;
  /** Labels the trace (e.g. the eval task id). */
  task?: string;
  signal?: AbortSignal;
}

export interface RunResult {
  runId: string;
  status: RunStatus;
  /** Why the run stopped, when it was not `done`. */
  detail?: string;
  /** The text of the model's final message ('' when the run stopped early). */
  answer: string;
  messages: Anthropic.MessageParam[];
  toolCalls: ToolCallRecord[];
  stats: RunStats;
  /** Per-run state the tools wrote (e.g. refund submissions). */
  store: Map<string, unknown>;
}

const DONE_REASONS = new Set(['end_turn', 'stop_sequence']);

/**
 * Run one task: call the model, run its tool calls through the pipeline, send the
 * results back, until the model ends its turn or a stop condition fires.
 *
 * @example
 * const result = await runAgent({ harness: upgraded, model, modelId, prompt, clock, mode: 'unattended' });
 */
export async function runAgent(options: RunAgentOptions): Promise<RunResult> {
  const { harness, clock, trace } = options;
  const runId = options.runId ?? randomUUID();
  const store = new Map<string, unknown>();
  const history: ToolCallRecord[] = [];
  /** The error text of each history entry (undefined for a success), for the no-progress check. */
  const errorTexts: Array<string | undefined> = [];
  const stats: RunStats = emptyStats();
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: options.prompt }];
  const systemText = harness.system({ clock, mode: options.mode });
  const system: MessageRequest['system'] = harness.cacheSystemPrompt
    ? [{ type: 'text', text: systemText, cache_control: { type: 'ephemeral' } }]
    : systemText;
  const tools = toAnthropicTools(harness.tools);
  const pipeline = createToolPipeline({
    tools: harness.tools,
    ...(harness.validate !== undefined && { validate: harness.validate }),
    ...(harness.hooks && { hooks: harness.hooks }),
    ...(harness.permissions && { permissions: harness.permissions }),
    ...(options.approver && { approver: options.approver }),
    ...(harness.timeouts !== undefined && { timeouts: harness.timeouts }),
    ...(harness.truncateAt !== undefined && { truncateAt: harness.truncateAt }),
  });
  let step = 0;
  const state: RunState = {
    runId,
    mode: options.mode,
    clock,
    history,
    store,
    get step() {
      return step;
    },
  };

  trace?.write({
    type: 'run_start',
    run_id: runId,
    ...(options.task && { task: options.task }),
    variant: harness.name,
    model: options.modelId,
    mode: options.mode,
    system_chars: systemText.length,
    ts: new Date(clock.now()).toISOString(),
  });

  const end = (status: RunStatus, answer: string, detail?: string): RunResult => {
    stats.steps = step;
    trace?.write({
      type: 'run_end',
      status,
      ...(detail && { detail }),
      stats: { ...stats },
      ts: new Date(clock.now()).toISOString(),
    });
    return {
      runId,
      status,
      ...(detail && { detail }),
      answer,
      messages,
      toolCalls: history,
      stats,
      store,
    };
  };

  while (true) {
    if (step >= harness.limits.maxSteps) {
      return end(
        'max_steps',
        '',
        `stopped after ${step} model calls (max ${harness.limits.maxSteps})`,
      );
    }
    step += 1;
    const sent = harness.historyBudgetChars
      ? trimHistory(messages, { maxChars: harness.historyBudgetChars }).messages
      : messages;
    const request: MessageRequest = {
      model: options.modelId,
      max_tokens: harness.maxTokens ?? 1024,
      system,
      tools,
      messages: sent,
    };
    const started = clock.now();
    let response: Anthropic.Message;
    try {
      response = await options.model.createMessage(
        request,
        options.signal ? { signal: options.signal } : undefined,
      );
    } catch (error) {
      stats.modelMs += clock.now() - started;
      return end('error', '', errorMessage(error));
    }
    const ms = clock.now() - started;
    addUsage(stats, response.usage, ms);
    trace?.write({
      type: 'model_call',
      step,
      stop_reason: response.stop_reason,
      input_tokens: response.usage?.input_tokens ?? 0,
      output_tokens: response.usage?.output_tokens ?? 0,
      cache_read_tokens: response.usage?.cache_read_input_tokens ?? 0,
      cache_write_tokens: response.usage?.cache_creation_input_tokens ?? 0,
      ms,
    });
    const content = Array.isArray(response.content) ? response.content : [];
    messages.push({ role: 'assistant', content: content as Anthropic.ContentBlockParam[] });
    const answer = content
      .filter((block): block is Anthropic.TextBlock => block.type === 'text')
      .map((block) => block.text)
      .join('\n')
      .trim();

    const spent =
      stats.inputTokens + stats.outputTokens + stats.cacheReadTokens + stats.cacheWriteTokens;
    const stopReason = response.stop_reason;
    if (stopReason !== 'tool_use' && stopReason !== 'pause_turn' && content.length === 0) {
      return end('model_stop', '', `the model returned no content (stop_reason ${stopReason})`);
    }
    if (stopReason !== null && DONE_REASONS.has(stopReason)) return end('done', answer);
    if (harness.limits.tokenBudget !== undefined && spent > harness.limits.tokenBudget) {
      return end(
        'token_budget',
        answer,
        `spent ${spent} tokens (budget ${harness.limits.tokenBudget})`,
      );
    }
    if (stopReason === 'pause_turn') continue;
    if (stopReason !== 'tool_use') {
      return end('model_stop', answer, `the model stopped with stop_reason '${stopReason}'`);
    }

    const calls: ToolCall[] = content
      .filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use')
      .map((block) => ({ id: block.id, name: block.name, input: block.input }));
    if (calls.length === 0) {
      return end('model_stop', answer, "stop_reason 'tool_use' without any tool_use block");
    }
    const outcomes = await pipeline.runAll(calls, state);
    for (const { record, result } of outcomes) {
      history.push(record);
      errorTexts.push(result.is_error ? result.content : undefined);
      stats.toolCalls += 1;
      stats.toolMs += record.ms;
      if (record.isError) stats.toolErrors += 1;
      if (
        record.effect === 'write' &&
        record.isError === false &&
        record.decision !== 'ask_approved'
      ) {
        stats.unconfirmedWrites += 1;
      }
      trace?.write({
        type: 'tool_call',
        step,
        tool: record.tool,
        input: redactForTrace(record.input),
        decision: record.decision,
        is_error: record.isError,
        ms: record.ms,
        result_chars: record.resultChars,
      });
    }
    messages.push({ role: 'user', content: outcomes.map((outcome) => outcome.result) });

    const streak = harness.limits.failureStreak;
    if (streak !== undefined && trailing(history, (record) => record.isError) >= streak) {
      return end('failure_streak', '', `${streak} tool calls failed in a row`);
    }
    const window = harness.limits.noProgressWindow;
    if (window !== undefined && isStuck(history, errorTexts, window)) {
      return end('no_progress', '', `the same call or error repeated ${window} times`);
    }
  }
}

function emptyStats(): RunStats {
  return {
    steps: 0,
    toolCalls: 0,
    toolErrors: 0,
    unconfirmedWrites: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    modelMs: 0,
    toolMs: 0,
  };
}

function addUsage(stats: RunStats, usage: Anthropic.Usage | undefined, ms: number): void {
  stats.modelMs += ms;
  stats.inputTokens += usage?.input_tokens ?? 0;
  stats.outputTokens += usage?.output_tokens ?? 0;
  stats.cacheReadTokens += usage?.cache_read_input_tokens ?? 0;
  stats.cacheWriteTokens += usage?.cache_creation_input_tokens ?? 0;
}

function trailing<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  let count = 0;
  for (let index = items.length - 1; index >= 0 && predicate(items[index]!); index -= 1) count += 1;
  return count;
}

/** The last `window` calls are one call repeated, or all end in the same error text. */
function isStuck(
  history: readonly ToolCallRecord[],
  errorTexts: ReadonlyArray<string | undefined>,
  window: number,
): boolean {
  if (history.length < window) return false;
  const last = history.slice(-window);
  const fingerprints = new Set(
    last.map((record) => `${record.tool}:${canonicalJson(record.input)}`),
  );
  if (fingerprints.size === 1) return true;
  const errors = errorTexts.slice(-window);
  return errors.every((text) => text !== undefined && text === errors[0]);
}
