import type { Clock } from '../core/clock.js';
import type { PermissionPolicy } from './permissions.js';
import type { Hooks, RunMode, ToolDefinition } from './types.js';

/** When the loop gives up. Unset limits are off. */
export interface StopLimits {
  /** Model calls per run. */
  maxSteps: number;
  /** Input + output + cache tokens summed over the run. */
  tokenBudget?: number;
  /** Stop when the last N tool calls are the same call, or end in the same error (seed: 3). */
  noProgressWindow?: number;
  /** Stop after N consecutive failed tool calls (seed 001: 2). */
  failureStreak?: number;
}

/**
 * A harness variant: everything around the model that the evals compare.
 * Same model and tools, different gates.
 */
export interface Harness {
  /** The variant name in reports and fixture paths, e.g. `baseline`, `upgraded`. */
  name: string;
  tools: readonly ToolDefinition[];
  /** The system prompt, built once per run from the run's clock and mode. */
  system: (environment: { clock: Clock; mode: RunMode }) => string;
  /** Mark the system prompt as a prompt-cache breakpoint. */
  cacheSystemPrompt?: boolean;
  validate?: boolean;
  hooks?: Hooks;
  permissions?: PermissionPolicy;
  timeouts?: boolean;
  truncateAt?: number;
  /** Trim history past this many characters of messages. */
  historyBudgetChars?: number;
  limits: StopLimits;
  maxTokens?: number;
  /**
   * Release what the harness holds for its run (e.g. the debug agent's sandbox directory).
   * Whoever created the harness calls it once the run is over; the eval trial runner does.
   */
  dispose?: () => void | Promise<void>;
}
