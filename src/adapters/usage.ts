import { tokenCount } from '../core/token-count.js';
import type { TokenUsage } from '../model-api/token-usage.js';

/**
 * Chat Completions `usage`: prompt_tokens includes the cached prompt tokens
 * (`prompt_tokens_details.cached_tokens`), so they are moved to cacheReadTokens.
 */
export function chatCompletionsUsage(usage: unknown): Partial<TokenUsage> {
  const value = (usage ?? {}) as Record<string, unknown>;
  const details = (value.prompt_tokens_details ?? {}) as Record<string, unknown>;
  const cached = tokenCount(details.cached_tokens);
  return {
    inputTokens: Math.max(0, tokenCount(value.prompt_tokens) - cached),
    outputTokens: tokenCount(value.completion_tokens),
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  };
}

/**
 * Responses API `usage`: input_tokens includes the cached ones
 * (`input_tokens_details.cached_tokens`), so they are moved to cacheReadTokens.
 */
export function responsesUsage(usage: unknown): Partial<TokenUsage> {
  const value = (usage ?? {}) as Record<string, unknown>;
  return chatCompletionsUsage({
    prompt_tokens: value.input_tokens,
    completion_tokens: value.output_tokens,
    prompt_tokens_details: value.input_tokens_details,
  });
}
