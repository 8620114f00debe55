import type Anthropic from '@anthropic-ai/sdk';
import { CHECKPOINT_VERSION, type Checkpoint } from './checkpoint.js';
import type { HistorySummary } from './history-summary.js';
import type { WriteRecord } from './idempotency.js';
import type { Decision, RunMode, RunStats, RunStatus, ToolCall, ToolCallRecord } from './types.js';

/**
 * What a write of a paused batch was answered when it ran and did not take effect (it threw,
 * or said so at its deadline or the run's cancellation): its intent was cleared, so the write
 * log would let it run again. Or when it timed out: its late outcome may clear its intent too.
 * Resume gives the model this answer instead.
 */
export interface NotMadeAnswer {
  tool: string;
  decision: Extract<Decision, 'failed' | 'timeout' | 'cancelled'>;
  /** The tool_result the model would have read (after PostToolUse hooks). */
  content: string;
  /**
   * Its write key, so resume can read what the write log says now (a human's retry or done)
   * also for a call whose id the redaction at rest changes, which `made` cannot hold.
   */
  key?: string | undefined;
}

/** Calls of one step that wait for a human, with the answers given before the run paused. */
export interface PendingApproval {
  step: number;
  calls: ToolCall[];
  requests: Array<{ id: string; tool: string; input: unknown; reason: string }>;
  answers: Record<string, boolean>;
  /** Calls of the batch (by tool_use id) that reached the write log before the pause: their keys. */
  made?: Record<string, string> | undefined;
  /** Writes of the batch that ran and did not take effect or timed out, by tool_use id as kept at rest. */
  notMade?: Record<string, NotMadeAnswer> | undefined;
}

/** Everything the loop changes as it runs: what a checkpoint saves and a resume restores. */
export interface LoopState {
  runId: string;
  prompt: string;
  task: string | undefined;
  /** The system prompt as first built; a resumed run sends the same text. */
  systemText: string;
  createdAt: string;
  /** Model calls made (completed steps once checkpointed). */
  step: number;
  messages: Anthropic.MessageParam[];
  history: ToolCallRecord[];
  /** The error text of each history entry (undefined for a success), for the no-progress check. */
  errorTexts: Array<string | undefined>;
  stats: RunStats;
  store: Map<string, unknown>;
  summary: HistorySummary | undefined;
  pending: PendingApproval | undefined;
}

export interface SnapshotMeta {
  variant: string;
  model: string;
  mode: RunMode;
  writes: readonly WriteRecord[];
  now: number;
}

export type FinishedRun = { status: RunStatus; answer: string; detail?: string };

/** The checkpoint of a state; `result` marks it finished. */
export function toCheckpoint(
  state: LoopState,
  meta: SnapshotMeta,
  result?: FinishedRun,
): Checkpoint {
  const phase = result ? 'finished' : state.pending ? 'awaiting_approval' : 'running';
  return {
    version: CHECKPOINT_VERSION,
    runId: state.runId,
    state: phase,
    variant: meta.variant,
    model: meta.model,
    mode: meta.mode,
    ...(state.task !== undefined && { task: state.task }),
    prompt: state.prompt,
    system: state.systemText,
    step: state.step,
    messages: state.messages as Checkpoint['messages'],
    history: state.history as Checkpoint['history'],
    errorTexts: state.errorTexts.map((text) => text ?? null),
    stats: { ...state.stats },
    store: Object.fromEntries(state.store),
    ...(state.summary && { summary: state.summary }),
    ...(phase === 'awaiting_approval' && state.pending && { pendingApproval: state.pending }),
    writes: [...meta.writes] as Checkpoint['writes'],
    ...(result && {
      result: {
        status: result.status,
        answer: result.answer,
        ...(result.detail !== undefined && { detail: result.detail }),
      },
    }),
    createdAt: state.createdAt,
    updatedAt: new Date(meta.now).toISOString(),
  };
}

/** The loop state a checkpoint describes. */
export function fromCheckpoint(checkpoint: Checkpoint): LoopState {
  return {
    runId: checkpoint.runId,
    prompt: checkpoint.prompt,
    task: checkpoint.task,
    systemText: checkpoint.system,
    createdAt: checkpoint.createdAt,
    step: checkpoint.step,
    messages: checkpoint.messages as unknown as Anthropic.MessageParam[],
    history: checkpoint.history.map(({ replayed, ...record }) => ({
      ...record,
      effect: record.effect,
      ...(replayed && { replayed }),
    })),
    errorTexts: checkpoint.errorTexts.map((text) => text ?? undefined),
    stats: { ...checkpoint.stats },
    store: new Map(Object.entries(checkpoint.store)),
    summary: checkpoint.summary,
    pending: checkpoint.pendingApproval,
  };
}
