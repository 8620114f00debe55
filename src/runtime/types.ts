import type { z } from 'zod';
import type { Clock } from '../core/clock.js';
import type { DecisionSchema, RunStatusSchema } from './journal/records.js';
import type { RunStatsSchema } from './run-stats-schema.js';

/** How one tool call ended; every call gets exactly one (listed in journal/records.ts). */
export type Decision = z.infer<typeof DecisionSchema>;

export type ToolEffect = 'read' | 'write';

/** interactive: a human may approve `ask` calls. unattended: anything that needs a human is refused. */
export type RunMode = 'interactive' | 'unattended';

/** A tool_use block as the model sent it. `input` is untrusted. */
export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
}

/** What the runtime remembers of one finished tool call (also the trace's tool_call event). */
export interface ToolCallRecord {
  step: number;
  id: string;
  tool: string;
  input: unknown;
  decision: Decision;
  isError: boolean;
  ms: number;
  resultChars: number;
  effect: ToolEffect | undefined;
  /** A write made before in this run: answered with its recorded result instead of running again. */
  replayed?: boolean;
}

/** Read-only view of the run that hooks, permission predicates and tools may consult. */
export interface RunState {
  readonly runId: string;
  readonly step: number;
  readonly mode: RunMode;
  readonly clock: Clock;
  /** Finished tool calls of this run, oldest first. */
  readonly history: readonly ToolCallRecord[];
  /**
   * Per-run scratch space for tools (e.g. the refund desk's write store); starts empty every
   * run, and a resumed run gets it back as of its last journaled call (JSON values only).
   */
  readonly store: Map<string, unknown>;
  /**
   * The calls of the same assistant turn listed before this one (they may be running in
   * parallel, so they are not in `history` yet); absent outside a batch.
   */
  readonly earlierInBatch?: readonly ToolCall[];
  /**
   * Hooks only: aborted when this hook call's deadline passes (`hooks.timeoutMs`) or the run is
   * cancelled, with the reason. Pass it on (`fetch(url, { signal })`,
   * `run.clock.sleep(ms, signal)`) so the hook's own work stops then. Tools get `context.signal`.
   */
  readonly signal?: AbortSignal;
}

export interface ToolExecuteContext {
  /** Aborted when the call times out or the run is cancelled: stop work when it fires. */
  signal: AbortSignal;
  /**
   * The run's clock for this call (so is `run.clock`). On a virtual clock (evals, tests) its
   * waits end with the call: one still pending when the tool returns (or times out) rejects,
   * and a later one at once; keep no clock across calls. A live run's real clock is the run's.
   */
  clock: Clock;
  run: RunState;
  /**
   * For write tools in a durable run (one with a journal): a key unique to this write in this run
   * (`<run-id>/<tool>:<business key>`). Pass it on to the downstream system so that it can
   * refuse a duplicate too.
   */
  idempotencyKey?: string;
}

export interface ToolDefinition<Schema extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  parameters: Schema;
  effect: ToolEffect;
  /** Per-tool timeout; the harness may override or disable timeouts. */
  timeoutMs?: number;
  execute(args: z.infer<Schema>, context: ToolExecuteContext): unknown;
  /**
   * Write tools: the business key of a write (e.g. `${order_id}:resubmit`). A resumed or retried
   * run that makes the same write gets the recorded result instead of a second execution.
   * Default: a hash of the canonical arguments.
   */
  idempotencyKey?(args: z.infer<Schema>, run: RunState): string;
  /** The Anthropic tool definition, generated once from `parameters`. */
  readonly inputSchema: AnthropicInputSchema;
  /** Extra, tool-specific guidance for a validation failure (e.g. the order id format). */
  describeInvalid?: (issues: readonly ValidationIssue[], input: unknown) => string | undefined;
}

export interface AnthropicInputSchema {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: string[];
  additionalProperties?: boolean;
  [key: string]: unknown;
}

export interface ValidationIssue {
  path: PropertyKey[];
  message: string;
  code?: string;
}

/** PreToolUse: deny with a reason, rewrite the input, or pass (undefined). Runs before permissions. */
export type PreToolUseResult =
  | { decision?: 'deny'; reason?: string; updatedInput?: unknown }
  | undefined;
export type PreToolUseHook = (
  call: ToolCall,
  run: RunState,
) => PreToolUseResult | Promise<PreToolUseResult>;

/**
 * PostToolUse: receives the result text the model would see, returns the text it will see.
 * Also called with the text of a tool's failure (`<tool> failed: <message>`, decision `failed`).
 */
export type PostToolUseHook = (
  call: ToolCall,
  output: string,
  run: RunState,
) => string | Promise<string>;

export interface Hooks {
  preToolUse?: PreToolUseHook[];
  postToolUse?: PostToolUseHook[];
  /**
   * How long each hook call may take, in ms (default 60000, as Claude Code's hooks). A hook
   * that has not settled by then is broken, like one that throws: a PreToolUse hook's call is
   * refused, a PostToolUse hook's result is not shown. Measured on the run's clock, as tool
   * timeouts are.
   */
  timeoutMs?: number;
}

export type PermissionEffect = 'allow' | 'ask' | 'deny';

/**
 * A permission rule. `tool` is a picomatch glob on the tool name. `when` narrows it by
 * argument: a shorthand like `amount>1000` / `order_id=ORD5*` / `command~drop ` (see
 * permissions.ts), or a predicate over the validated input and the run.
 */
export interface PermissionRule {
  effect: PermissionEffect;
  tool: string;
  when?: string | ((input: Record<string, unknown>, run: RunState) => boolean);
  /** Shown to the model and in the trace when this rule decides. */
  reason?: string;
}

export interface PermissionDecision {
  effect: PermissionEffect;
  /** The rule that decided, or undefined when nothing matched (default ask). */
  rule: PermissionRule | undefined;
  reason: string;
}

/**
 * Asked on `ask` in interactive mode; resolves true to approve. `'defer'` pauses a durable run
 * (status `awaiting_approval`) so a human can decide later and resume it; in a run without a
 * journal it counts as a refusal. The runtime always passes `approval`; an approver
 * that takes two arguments still works, but keeps a cancelled run's human asking.
 *
 * @example
 * const approver: Approver = (call, reason, approval) =>
 *   askOnSlack(`${call.name}? ${reason}`, { signal: approval?.signal });
 */
export type Approver = (
  call: ToolCall,
  reason: string,
  approval?: ApprovalContext,
) => Promise<ApprovalAnswer>;

export interface ApprovalContext {
  /**
   * Aborted, with the run's reason, when the run is cancelled while this question is open:
   * the run no longer waits for the answer and will not keep it (the call does not run).
   * Withdraw the question then. It does not abort once the question was answered.
   */
  signal: AbortSignal;
}

export type ApprovalAnswer = boolean | 'defer';

/** Figures of one run (run-stats-schema.ts). */
export type RunStats = z.infer<typeof RunStatsSchema>;

/** How a run ended (listed in journal/records.ts). */
export type RunStatus = z.infer<typeof RunStatusSchema>;
