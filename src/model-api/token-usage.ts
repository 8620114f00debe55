import { z } from 'zod';
import { tokenCount } from '../core/token-count.js';

/** Token counts of model calls in the report's terms: input excludes cache reads and writes. */
export const TokenUsageSchema = z
  .object({
    inputTokens: z.number().nonnegative(),
    outputTokens: z.number().nonnegative(),
    cacheReadTokens: z.number().nonnegative(),
    cacheWriteTokens: z.number().nonnegative(),
  })
  .strict();
export type TokenUsage = z.infer<typeof TokenUsageSchema>;

export function emptyUsage(): TokenUsage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
}

/** Messages API `usage`: input_tokens already excludes the cache. */
export function anthropicUsage(usage: unknown): TokenUsage {
  const value = (usage ?? {}) as Record<string, unknown>;
  return {
    inputTokens: tokenCount(value.input_tokens),
    outputTokens: tokenCount(value.output_tokens),
    cacheReadTokens: tokenCount(value.cache_read_input_tokens),
    cacheWriteTokens: tokenCount(value.cache_creation_input_tokens),
  };
}

/**
 * Adds `more` to `total` in place (a run's stats, an adapter's usage): the one usage adder.
 * Only whole counts >= 0 count, so a hand-written client's `"30000"` is never concatenated
 * into a token budget.
 */
export function addUsage(total: TokenUsage, more: Partial<TokenUsage>): void {
  total.inputTokens += tokenCount(more.inputTokens);
  total.outputTokens += tokenCount(more.outputTokens);
  total.cacheReadTokens += tokenCount(more.cacheReadTokens);
  total.cacheWriteTokens += tokenCount(more.cacheWriteTokens);
}
