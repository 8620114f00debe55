import { canonicalJson } from '../core/canonical-json.js';
import type { StopLimits } from './harness.js';
import { RunStatsSchema } from './run-stats-schema.js';
import type { RunStats, RunStatus, ToolCallRecord } from './types.js';

/** The stop after a completed tool step: a failure streak or no progress; undefined to go on. */
export function stopAfterTools(
  history: readonly ToolCallRecord[],
  errorTexts: ReadonlyArray<string | undefined>,
  limits: StopLimits,
): { status: RunStatus; detail: string } | undefined {
  const streak = limits.failureStreak;
  // The tool calls that failed in a row, up to the last one.
  const failed = history.length - 1 - history.findLastIndex((record) => !record.isError);
  if (streak !== undefined && failed >= streak) {
    return { status: 'failure_streak', detail: `${streak} tool calls failed in a row` };
  }
  const window = limits.noProgressWindow;
  if (window !== undefined && isStuck(history, errorTexts, window)) {
    return { status: 'no_progress', detail: `the same call or error repeated ${window} times` };
  }
  return undefined;
}

const FIGURES = Object.keys(RunStatsSchema.shape);

/** Every figure of RunStatsSchema at 0, in its order. */
export function emptyStats(): RunStats {
  return Object.fromEntries(FIGURES.map((name) => [name, 0])) as RunStats;
}

/** Input + output + cache tokens: what the token budget counts. */
export function tokensSpent(stats: RunStats): number {
  return stats.inputTokens + stats.outputTokens + stats.cacheReadTokens + stats.cacheWriteTokens;
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
