import type Anthropic from '@anthropic-ai/sdk';
import type { Clock } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import type { MessageRequest, ModelCallOptions, ModelClient } from '../model-api/model-client.js';
import { toAnthropicTools } from './define-tool.js';
import type { Harness } from './harness.js';
import { historyToSend } from './history-summary.js';
import type { ModelAnswered } from './journal/records.js';
import type { RunJournal } from './journal/run-journal.js';
import { contentOf, repeatedId, responseText, toolCallsOf } from './model-turn.js';
import { createToolPipeline, type ToolOutcome, type ToolPipeline } from './pipeline.js';
import { endRun, type RunResult } from './run-end.js';
import { summaryCost } from './run-summarizer.js';
import { serialApprover } from './serial-approver.js';
import { stopAfterTools, tokensSpent } from './stop-rules.js';
import { modelCallEvent, toolCallEvent } from './trace.js';
import type { GuardedTrace } from './trace-guard.js';
import type { Approver, RunMode, RunState, RunStatus, ToolCall } from './types.js';

/** Model ids per role besides the main loop's. */
export interface RoleModels {
  /** A cheaper model that summarises history dropped by `historyBudgetChars`. */
  summarize?: string;
}

export interface LoopContext {
  harness: Harness;
  model: ModelClient;
  modelId: string;
  clock: Clock;
  mode: RunMode;
  approver?: Approver | undefined;
  /** Guarded: a failed write is kept, and the loop ends the run with it before its next step. */
  trace?: GuardedTrace | undefined;
  signal?: AbortSignal | undefined;
  roleModels?: RoleModels | undefined;
  journal: RunJournal;
}

/** What one run of the loop holds, made once. */
interface Loop {
  context: LoopContext;
  journal: RunJournal;
  pipeline: ToolPipeline;
  runState: RunState;
  callOptions: ModelCallOptions;
  request: Omit<MessageRequest, 'messages'>;
  /** The step being asked for (the journal's step + 1 while the model call is out). */
  asking: number;
}

type Ended = RunResult | undefined;

const DONE_REASONS = new Set(['end_turn', 'stop_sequence']);

/**
 * The agent loop from where the run's journal stands: call the model, run its tool calls
 * through the pipeline, send the results back, until the model ends its turn or a stop
 * condition fires. A resumed run first finishes what its journal left open.
 */
export async function runLoop(context: LoopContext): Promise<RunResult> {
  const loop = prepare(context);
  const resumed = await resumePoint(loop);
  if (resumed) return resumed;
  while (true) {
    const ended = await nextStep(loop);
    if (ended) return ended;
  }
}

function prepare(context: LoopContext): Loop {
  const { harness, journal, trace } = context;
  const { view } = journal;
  const system = view.started.system;
  const loop: Loop = {
    context,
    journal,
    // The harness's tools, validation, hooks, permissions, timeouts and truncation.
    pipeline: createToolPipeline({
      ...harness,
      // One question at a time, whoever wrote the approver: the calls of a turn run in parallel.
      ...(context.approver && { approver: serialApprover(context.approver) }),
      ...(context.signal && { signal: context.signal }),
      journal,
    }),
    runState: {
      runId: view.started.runId,
      mode: context.mode,
      clock: context.clock,
      history: view.history,
      store: view.store,
      get step() {
        return view.step;
      },
    },
    callOptions: {
      ...(context.signal && { signal: context.signal }),
      onEvent: (event) => trace?.write({ ...event, step: loop.asking }),
      // A retry or fallback whose event failed is not sent: the run ends as a failed trace ends it.
      stopAfterEvent: async () => trace?.failure(),
    },
    request: {
      model: context.modelId,
      max_tokens: harness.maxTokens ?? 1024,
      system: harness.cacheSystemPrompt
        ? [{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }]
        : system,
      tools: toAnthropicTools(harness.tools),
    },
    asking: view.step,
  };
  return loop;
}

const end = (loop: Loop, status: RunStatus, answer: string, detail?: string) =>
  endRun(loop.context, status, answer, detail);

/** The trace failed: nothing new starts (no model call, no tool), what was done is kept. */
async function traceStopped(loop: Loop): Promise<boolean> {
  return (await loop.context.trace?.failure()) !== undefined;
}

/** Where a resumed run goes on: the open step's calls, the stop rules, or the last answer. */
async function resumePoint(loop: Loop): Promise<Ended> {
  const { view } = loop.journal;
  if (view.finished) {
    return end(loop, view.finished.status, view.finished.answer, view.finished.detail);
  }
  const last = view.last;
  if (!last) return undefined;
  const hadCalls =
    last.stopReason === 'tool_use' && toolCallsOf(contentOf(last as never)).length > 0;
  if (hadCalls && !view.open) return afterTools(loop);
  return afterAnswer(loop, last);
}

/** One model call and what follows from its answer. */
async function nextStep(loop: Loop): Promise<Ended> {
  const { context, journal } = loop;
  const { harness, clock } = context;
  const { view } = journal;
  if (await traceStopped(loop)) return end(loop, 'error', '');
  if (view.step >= harness.limits.maxSteps) {
    return end(
      loop,
      'max_steps',
      '',
      `stopped after ${view.step} model calls (max ${harness.limits.maxSteps})`,
    );
  }
  loop.asking = view.step + 1;
  const messages = await summarized(loop);
  if (typeof messages === 'string') return end(loop, 'error', '', messages);
  // The summary call's events may have failed: the main call must not go out untraced.
  if (await traceStopped(loop)) return end(loop, 'error', '');
  const started = clock.now();
  let response: Anthropic.Message;
  try {
    response = await context.model.createMessage({ ...loop.request, messages }, loop.callOptions);
  } catch (error) {
    view.stats.modelMs += clock.now() - started;
    // Stopped by the trace's failure (stopAfterEvent): the run ends naming it, as it does elsewhere.
    const failure = await context.trace?.failure();
    if (failure !== undefined && error === failure) return end(loop, 'error', '');
    return end(loop, 'error', '', errorMessage(error));
  }
  const ms = clock.now() - started;
  context.trace?.write(modelCallEvent(loop.asking, response, ms));
  const content = contentOf(response);
  const twin = repeatedId(toolCallsOf(content));
  if (twin !== undefined) {
    return end(
      loop,
      'error',
      '',
      `the model answered with two tool calls under one id ('${twin}'): its answer was not used; resume the run to ask again`,
    );
  }
  try {
    // Durable before any of its tool calls runs: a resumed run never asks for this step again.
    await journal.append({
      type: 'model_answered',
      step: loop.asking,
      content: content as unknown as ModelAnswered['content'],
      usage: (response.usage ?? null) as unknown as ModelAnswered['usage'],
      ms,
      stopReason: response.stop_reason ?? null,
    });
  } catch (error) {
    return end(loop, 'error', '', errorMessage(error));
  }
  return afterAnswer(loop, view.last!);
}

/** The messages to send for the next step, with a new summary kept; or why that failed. */
async function summarized(loop: Loop): Promise<Anthropic.MessageParam[] | string> {
  const { context, journal } = loop;
  const { view } = journal;
  const summaryModel = context.roleModels?.summarize;
  const cost = summaryCost(loop.context, loop.callOptions, () => loop.asking);
  const sent = await historyToSend({
    messages: view.messages,
    maxChars: context.harness.historyBudgetChars,
    summary: view.summary,
    ...(summaryModel !== undefined && { summarize: cost.summarizer(summaryModel) }),
  });
  if (sent.summary === view.summary || sent.summary === undefined) {
    // A summary that failed costs what it cost, in this process (its tokens are not journaled).
    cost.addTo(view.stats);
    return sent.messages;
  }
  try {
    await journal.append({ type: 'summary', step: loop.asking, ...sent.summary, ...cost.spent() });
  } catch (error) {
    return errorMessage(error);
  }
  return sent.messages;
}

/** What a model answer leads to: the run's end, another model call, or its tool calls. */
async function afterAnswer(loop: Loop, answer: ModelAnswered): Promise<Ended> {
  const { harness } = loop.context;
  const content = answer.content as unknown as Anthropic.ContentBlock[];
  const stopReason = answer.stopReason;
  const text = responseText(content, '\n');
  if (stopReason !== 'tool_use' && stopReason !== 'pause_turn' && content.length === 0) {
    return end(loop, 'model_stop', '', `the model returned no content (stop_reason ${stopReason})`);
  }
  if (stopReason !== null && DONE_REASONS.has(stopReason)) return end(loop, 'done', text);
  const spent = tokensSpent(loop.journal.view.stats);
  const budget = harness.limits.tokenBudget;
  if (budget !== undefined && spent > budget) {
    return end(loop, 'token_budget', text, `spent ${spent} tokens (budget ${budget})`);
  }
  if (stopReason === 'pause_turn') return undefined;
  if (stopReason !== 'tool_use') {
    return end(loop, 'model_stop', text, `the model stopped with stop_reason '${stopReason}'`);
  }
  const calls = toolCallsOf(content);
  if (calls.length === 0) {
    return end(loop, 'model_stop', text, "stop_reason 'tool_use' without any tool_use block");
  }
  if (await traceStopped(loop)) return end(loop, 'error', '');
  const stopped = await runCalls(loop, calls);
  return stopped ?? afterTools(loop);
}

/**
 * Runs the calls of the step that have no result yet (all of them, unless the run resumed).
 * Ends the run when a call's journal failed, when the run was cancelled, or when a call waits
 * for a human; otherwise the step is complete (the journal moved its results into the history).
 */
async function runCalls(loop: Loop, calls: readonly ToolCall[]): Promise<Ended> {
  const { journal, context } = loop;
  const open = journal.view.open!;
  const owed = calls.flatMap((_, index) => (open.results[index] ? [] : [index]));
  let outcomes: ToolOutcome[];
  try {
    outcomes = await loop.pipeline.runAll(calls, owed, loop.runState);
  } catch (error) {
    // The pipeline turns every failure into an outcome; this is a bug in it.
    return end(loop, 'error', '', `the tool pipeline failed: ${errorMessage(error)}`);
  }
  traceCalls(loop, outcomes);
  const fatal = outcomes.flatMap((outcome) =>
    outcome.kind === 'result' && outcome.fatal ? [outcome.fatal] : [],
  );
  if (fatal.length > 0) {
    // What the journal could not take still happened: the run's result reports it.
    const open = journal.view.open;
    const unrecorded = outcomes.flatMap((outcome) =>
      outcome.kind === 'result' && !open?.results[outcome.fact.index] ? [outcome.fact] : [],
    );
    return endRun(loop.context, 'error', '', fatal.join('; '), unrecorded);
  }
  if (context.signal?.aborted) {
    // Calls that did not run have no result: resume runs them.
    const reason = errorMessage(context.signal.reason);
    return end(loop, 'error', '', `the run was cancelled while its tool calls ran: ${reason}`);
  }
  const waiting = owed.filter((_, position) => outcomes[position]?.kind === 'later');
  if (waiting.length === 0) return undefined;
  const tools = waiting.map((index) => calls[index]!.name).join(', ');
  return end(loop, 'awaiting_approval', '', `waiting for a human to approve or reject ${tools}`);
}

function traceCalls(loop: Loop, outcomes: readonly ToolOutcome[]): void {
  for (const outcome of outcomes) {
    if (outcome.kind === 'result') loop.context.trace?.write(toolCallEvent(outcome.record));
  }
}

/** The stop after a completed tool step: a failure streak or no progress; undefined to go on. */
function afterTools(loop: Loop): Ended | Promise<Ended> {
  const { view } = loop.journal;
  const stop = stopAfterTools(view.history, view.errorTexts, loop.context.harness.limits);
  return stop ? end(loop, stop.status, '', stop.detail) : undefined;
}
