import type { Clock } from '../core/clock.js';
import type { TokenUsage } from '../model-api/token-usage.js';
import type { RunStatus, ToolEffect } from '../runtime/types.js';

export type { Provider } from '../model-api/provider.js';
export type { TokenUsage } from '../model-api/token-usage.js';

/**
 * What an agent adapter gets for one trial. Send every model request through `fetch` to
 * `baseURL`: that is where harness-evals records and replays the traffic (msw), so strict
 * matching, stale diffs and re-record commands work for any agent.
 */
export interface AgentContext {
  prompt: string;
  task: string;
  variant: string;
  trial: number;
  /** Use instead of `globalThis.fetch`, and pass it to your SDK client (`fetch` option). */
  fetch: typeof fetch;
  /** The API's base URL for this trial (a replay host, a local simulator or the live API). */
  baseURL: string;
  /** The key to send; a placeholder in replay and against the simulator. */
  apiKey: string;
  /** The model id: recorded in the cassette, `--model` when recording. */
  model: string;
  /** A virtual clock in evals: read "now" from it, never from the wall clock. */
  clock: Clock;
  /**
   * The clock to wait on between retries of a model call. Recording against a live API, it
   * waits in real time (a 429's retry-after must really pass) and moves `clock` on by the
   * wait; otherwise it is `clock`. Undefined: use `clock`.
   */
  retryClock?: Clock;
  /**
   * The deadline of one model call, headers and body, in ms: what `--model-timeout` (or
   * HARNESS_MODEL_TIMEOUT) asked for. Undefined: the adapter's own default.
   */
  modelTimeoutMs?: number;
  signal: AbortSignal;
  projectDir: string;
}

/** A tool for an adapter-driven agent: JSON schema in, text out. */
export interface AdapterTool {
  name: string;
  description?: string;
  /** JSON schema of the arguments. */
  parameters: Record<string, unknown>;
  effect?: 'read' | 'write';
  run(input: Record<string, unknown>, context: AgentContext): string | Promise<string>;
}

/** One tool call an adapter reports, for checks and the report's tool columns. */
export interface AgentToolCall {
  name: string;
  input: unknown;
  isError?: boolean;
  effect?: ToolEffect;
  /** A write a human approved; a write without it counts as an unconfirmed write. */
  approved?: boolean;
}

/** What an adapter returns: the answer and, where it can, tool calls and usage. */
export interface AgentOutput {
  answer: string;
  toolCalls?: readonly AgentToolCall[];
  usage?: Partial<TokenUsage>;
  /** Defaults to `done`. `error` means the run failed: the trial counts as errored. */
  status?: RunStatus;
  /** Why the run stopped, when it was not `done` (the errored trial's message). */
  detail?: string;
}

/** An agent written without this runtime: one run per call. */
export type AgentAdapter = (context: AgentContext) => Promise<AgentOutput>;
