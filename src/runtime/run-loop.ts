import type Anthropic from '@anthropic-ai/sdk';
import type { Clock } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import type { CheckpointStore } from './checkpoint-store.js';
import { toAnthropicTools } from './define-tool.js';
import type { Harness } from './harness.js';
import { historyToSend } from './history-summary.js';
import type { WriteIntent, WriteLog, WriteRecord } from './idempotency.js';
import type { MessageRequest, ModelCallOptions, ModelClient } from './model-client.js';
import { contentOf, responseText, toolCallsOf } from './model-turn.js';
import {
  answersOf,
  keepAnswer,
  pausedBatch,
  ranBeforePause,
  resumedBatch,
} from './paused-batch.js';
import { type ApprovalDecisions, pausedBatchApprover } from './paused-batch-approver.js';
import { createToolPipeline, type ToolOutcome, type ToolPipelineOptions } from './pipeline.js';
import { recordCalls as recordFinished } from './record-calls.js';
import {
  type FinishedRun,
  type LoopState,
  type PendingApproval,
  toCheckpoint,
} from './run-snapshot.js';
import { createSummarizer } from './run-summarizer.js';
import { addUsage, modelCallEvent, stopAfterTools, tokensSpent } from './stop-rules.js';
import { type GuardedTrace, reportedEnd } from './trace-guard.js';
import type {
  Approver,
  RunMode,
  RunState,
  RunStats,
  RunStatus,
  ToolCall,
  ToolCallRecord,
} from './types.js';

/** Model ids per role besides the main loop's. */
export interface RoleModels {
  /** A cheaper model that summarises history dropped by `historyBudgetChars`. */
  summarize?: string;
}

export type { ApprovalDecisions } from './paused-batch-approver.js';

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
  /** Executed writes from the run's durable write log (runs with checkpoints). */
  writes?: readonly WriteRecord[];
  /** Writes whose outcome is unknown (timed out, interrupted): a human must resolve them. */
  unresolvedWrites?: readonly WriteIntent[];
  /** With status `awaiting_approval`: the calls a human must approve or reject. */
  pendingApprovals?: PendingApproval['requests'];
}

export interface LoopContext {
  harness: Harness;
  model: ModelClient;
  modelId: string;
  clock: Clock;
  mode: RunMode;
  approver?: Approver | undefined;
  approvals?: ApprovalDecisions | undefined;
  /** Guarded: a failed write is kept, and the loop ends the run with it before its next step. */
  trace?: GuardedTrace | undefined;
  signal?: AbortSignal | undefined;
  checkpoints?: CheckpointStore | undefined;
  writes?: WriteLog | undefined;
  roleModels?: RoleModels | undefined;
}

const DONE_REASONS = new Set(['end_turn', 'stop_sequence']);

/**
 * The agent loop from the state's current step: call the model, run its tool calls through the
 * pipeline, send the results back, until the model ends its turn or a stop condition fires.
 * With `checkpoints`, the state is saved after every completed step.
 */
export async function runLoop(state: LoopState, context: LoopContext): Promise<RunResult> {
  const { harness, clock, trace, checkpoints } = context;
  const { stats, messages, history, errorTexts } = state;
  const system: MessageRequest['system'] = harness.cacheSystemPrompt
    ? [{ type: 'text', text: state.systemText, cache_control: { type: 'ephemeral' } }]
    : state.systemText;
  const tools = toAnthropicTools(harness.tools);
  /** Answers a human gave during the current batch, kept if the batch pauses. */
  let answers = new Map<string, boolean>();
  const remembering = (approver: Approver | undefined): Approver | undefined =>
    approver &&
    (async (call, reason, approval) => {
      const answer = await approver(call, reason, approval);
      // A withdrawn question's answer (the run was cancelled) is not used, nor kept for resume.
      if (typeof answer === 'boolean' && !approval?.signal.aborted) {
        keepAnswer(answers, call.id, answer);
      }
      return answer;
    });
  type Resumed = Pick<ToolPipelineOptions, 'madeBeforePause' | 'notMadeBeforePause'>;
  const pipelineFor = (approver: Approver | undefined, resumed: Resumed = {}) =>
    createToolPipeline({
      tools: harness.tools,
      ...(harness.validate !== undefined && { validate: harness.validate }),
      ...(harness.hooks && { hooks: harness.hooks }),
      ...(harness.permissions && { permissions: harness.permissions }),
      ...(approver && { approver }),
      ...(harness.timeouts !== undefined && { timeouts: harness.timeouts }),
      ...(harness.truncateAt !== undefined && { truncateAt: harness.truncateAt }),
      ...(context.writes && { writes: context.writes }),
      ...(checkpoints && { canDefer: true }),
      ...(context.signal && { signal: context.signal }),
      ...resumed,
    });
  const pipeline = pipelineFor(remembering(context.approver));
  const runState: RunState = {
    runId: state.runId,
    mode: context.mode,
    clock,
    history,
    store: state.store,
    get step() {
      return state.step;
    },
  };
  const callOptions: ModelCallOptions = {
    ...(context.signal && { signal: context.signal }),
    onEvent: (event) => trace?.write({ ...event, step: state.step }),
    // A retry or fallback whose event failed is not sent: the run ends as a failed trace ends it.
    stopAfterEvent: async () => trace?.failure(),
  };

  const save = async (result?: FinishedRun) => {
    const meta = {
      variant: harness.name,
      model: context.modelId,
      mode: context.mode,
      writes: context.writes?.list() ?? [],
      now: clock.now(),
    };
    await checkpoints?.save(toCheckpoint(state, meta, result));
  };
  const saveFailure = (error: unknown) =>
    `could not save the checkpoint of step ${state.step} to ${checkpoints?.describe(state.runId)} (${errorMessage(error)}); the previous checkpoint is intact: fix the problem and resume run ${state.runId}`;

  const end = async (status: RunStatus, answer: string, detail?: string): Promise<RunResult> => {
    stats.steps = state.step;
    // A failed run is not finished: its last checkpoint stays resumable.
    if (checkpoints && status !== 'error') {
      try {
        await save(
          status === 'awaiting_approval'
            ? undefined
            : { status, answer, ...(detail && { detail }) },
        );
      } catch (error) {
        return end('error', '', saveFailure(error));
      }
    }
    trace?.write({
      type: 'run_end',
      status,
      ...(detail && { detail }),
      stats: { ...stats },
      ts: new Date(clock.now()).toISOString(),
    });
    // A run whose trace failed is reported as failed, whatever else it did.
    const reported = await reportedEnd(
      trace,
      { runId: state.runId, resumable: checkpoints !== undefined },
      status,
      detail,
    );
    return {
      runId: state.runId,
      status: reported.status,
      ...(reported.detail && { detail: reported.detail }),
      answer,
      messages,
      toolCalls: history,
      stats,
      store: state.store,
      ...(context.writes && { writes: context.writes.list() }),
      ...(context.writes?.unresolvedList().length && {
        unresolvedWrites: context.writes.unresolvedList(),
      }),
      ...(status === 'awaiting_approval' &&
        state.pending && {
          pendingApprovals: state.pending.requests,
        }),
    };
  };

  /** Saves a running checkpoint; a failure ends the run (returned), success returns undefined. */
  const checkpointed = async (): Promise<RunResult | undefined> => {
    if (!checkpoints) return undefined;
    try {
      await save();
      return undefined;
    } catch (error) {
      return end('error', '', saveFailure(error));
    }
  };

  const records = { history, errorTexts, stats, trace };
  const recordCalls = (outcomes: readonly ToolOutcome[]) =>
    recordFinished(records, state.step, outcomes);

  const runBatch = async (
    calls: readonly ToolCall[],
    batchPipeline: typeof pipeline,
  ): Promise<ToolOutcome[] | RunResult> => {
    let outcomes: ToolOutcome[];
    try {
      outcomes = await batchPipeline.runAll(calls, runState);
    } catch (error) {
      // The pipeline turns every failure into an outcome; this is a bug in it.
      return end('error', '', `the tool pipeline failed: ${errorMessage(error)}`);
    }
    const fatal = outcomes.flatMap((outcome) =>
      outcome.fatal === undefined ? [] : [outcome.fatal],
    );
    if (fatal.length === 0) return outcomes;
    // The write log failed: going on is unsafe. What the batch did stays on record.
    recordCalls(outcomes);
    return end('error', '', fatal.join('; '));
  };

  /** `earlier`: a resumed batch pausing again keeps what its earlier pause kept. */
  const pause = (
    calls: readonly ToolCall[],
    outcomes: readonly ToolOutcome[],
    earlier?: PendingApproval,
  ) => {
    state.pending = pausedBatch(state.step, calls, outcomes, answers, earlier);
    const { requests } = state.pending;
    for (const request of requests) {
      trace?.write({
        type: 'approval_pending',
        step: state.step,
        tool: request.tool,
        input: request.input ?? null,
        reason: request.reason,
      });
    }
    const tools = requests.map((request) => request.tool).join(', ');
    return end('awaiting_approval', '', `waiting for a human to approve or reject ${tools}`);
  };

  /**
   * The run was cancelled while a batch ran: it ends as a cancelled model call does, failed and
   * resumable from the checkpoint just saved. No stop rule runs: its `cancelled` calls never ran.
   */
  const cancelledDuringBatch = async (): Promise<RunResult> => {
    const stopped = await checkpointed();
    if (stopped) return stopped;
    const reason = errorMessage(context.signal?.reason);
    return end('error', '', `the run was cancelled while its tool calls ran: ${reason}`);
  };

  const completeStep = async (outcomes: readonly ToolOutcome[]): Promise<RunResult | undefined> => {
    recordCalls(outcomes);
    messages.push({ role: 'user', content: outcomes.map((outcome) => outcome.result) });
    if (context.signal?.aborted) return cancelledDuringBatch();

    const stop = stopAfterTools(history, errorTexts, harness.limits);
    return stop ? end(stop.status, '', stop.detail) : checkpointed();
  };

  /** Re-run the paused batch with the human's answers; writes already made come from the log. */
  const settlePending = async (pending: PendingApproval): Promise<RunResult | undefined> => {
    const approver = pausedBatchApprover(pending, context.approvals, context.approver);
    answers = answersOf(pending.answers);
    const resumed = pipelineFor(remembering(approver), resumedBatch(pending));
    const outcomes = await runBatch(pending.calls, resumed);
    if (!Array.isArray(outcomes)) return outcomes;
    if (context.signal?.aborted) {
      // The batch stays pending, with the human's answers: resume runs it again, and the writes
      // it ran meanwhile are answered from the write log or with their failure.
      state.pending = {
        ...pending,
        answers: Object.fromEntries(answers),
        ...ranBeforePause(pending.calls, outcomes, pending),
      };
      return cancelledDuringBatch();
    }
    if (outcomes.some((outcome) => outcome.deferred !== undefined)) {
      return pause(pending.calls, outcomes, pending);
    }
    state.pending = undefined;
    return completeStep(outcomes);
  };

  const summaryModel = context.roleModels?.summarize;
  const summarizing = { ...context, stats, callOptions, step: () => state.step };

  /** The trace failed: nothing new starts (no model call, no tool), what was done is kept. */
  const traceStopped = async () => (await trace?.failure()) !== undefined;

  if (state.pending) {
    if (await traceStopped()) return end('error', '');
    const stopped = await settlePending(state.pending);
    if (stopped) return stopped;
  }

  while (true) {
    if (await traceStopped()) return end('error', '');
    if (state.step >= harness.limits.maxSteps) {
      return end(
        'max_steps',
        '',
        `stopped after ${state.step} model calls (max ${harness.limits.maxSteps})`,
      );
    }
    state.step += 1;
    const sent = await historyToSend({
      messages,
      maxChars: harness.historyBudgetChars,
      summary: state.summary,
      ...(summaryModel !== undefined && { summarize: createSummarizer(summarizing, summaryModel) }),
    });
    // The summary call's events may have failed: the main call must not go out untraced.
    if (await traceStopped()) return end('error', '');
    state.summary = sent.summary;
    const request: MessageRequest = {
      model: context.modelId,
      max_tokens: harness.maxTokens ?? 1024,
      system,
      tools,
      messages: sent.messages,
    };
    const started = clock.now();
    let response: Anthropic.Message;
    try {
      response = await context.model.createMessage(request, callOptions);
    } catch (error) {
      stats.modelMs += clock.now() - started;
      // Stopped by the trace's failure (stopAfterEvent): the run ends naming it, as it does elsewhere.
      const failure = await trace?.failure();
      if (failure !== undefined && error === failure) return end('error', '');
      return end('error', '', errorMessage(error));
    }
    const ms = clock.now() - started;
    addUsage(stats, response.usage, ms);
    trace?.write(modelCallEvent(state.step, response, ms));
    const content = contentOf(response);
    messages.push({ role: 'assistant', content: content as Anthropic.ContentBlockParam[] });
    const answer = responseText(content, '\n');

    const spent = tokensSpent(stats);
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
    if (stopReason === 'pause_turn') {
      const stopped = await checkpointed();
      if (stopped) return stopped;
      continue;
    }
    if (stopReason !== 'tool_use') {
      return end('model_stop', answer, `the model stopped with stop_reason '${stopReason}'`);
    }

    const calls = toolCallsOf(content);
    if (calls.length === 0) {
      return end('model_stop', answer, "stop_reason 'tool_use' without any tool_use block");
    }
    // The model's answer is not kept: a resumed run asks again, and no tool ran untraced.
    if (await traceStopped()) return end('error', '');
    answers = new Map();
    const outcomes = await runBatch(calls, pipeline);
    if (!Array.isArray(outcomes)) return outcomes;
    if (outcomes.some((outcome) => outcome.deferred !== undefined)) {
      if (!context.signal?.aborted) return pause(calls, outcomes);
      // Cancelled while a call waits for a human: the batch stays paused, the run ends cancelled.
      state.pending = pausedBatch(state.step, calls, outcomes, answers);
      return cancelledDuringBatch();
    }
    const stopped = await completeStep(outcomes);
    if (stopped) return stopped;
  }
}
