import type { TokenUsage } from './types.js';

/** Messages API `usage`: input_tokens already excludes the cache. */
export function anthropicUsage(usage: unknown): Partial<TokenUsage> {
  const value = (usage ?? {}) as Record<string, unknown>;
  return {
    inputTokens: count(value.input_tokens),
    outputTokens: count(value.output_tokens),
    cacheReadTokens: count(value.cache_read_input_tokens),
    cacheWriteTokens: count(value.cache_creation_input_tokens),
  };
}

/**
 * Chat Completions `usage`: prompt_tokens includes the cached prompt tokens
 * (`prompt_tokens_details.cached_tokens`), so they are moved to cacheReadTokens.
 */
export function chatCompletionsUsage(usage: unknown): Partial<TokenUsage> {
  const value = (usage ?? {}) as Record<string, unknown>;
  const details = (value.prompt_tokens_details ?? {}) as Record<string, unknown>;
  const cached = count(details.cached_tokens);
  return {
    inputTokens: Math.max(0, count(value.prompt_tokens) - cached),
    outputTokens: count(value.completion_tokens),
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
