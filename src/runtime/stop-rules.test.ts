import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { addUsage, emptyStats, modelCallEvent, tokensSpent } from './stop-rules.js';

/** What a model client that skips the boundary check (a hand-written double) might hand over. */
const odd = (usage: Record<string, unknown>) => usage as unknown as Anthropic.Usage;

describe('addUsage', () => {
  it('adds token counts as numbers', () => {
    const stats = emptyStats();
    addUsage(stats, odd({ input_tokens: 30000, output_tokens: 1, cache_read_input_tokens: 5 }), 12);
    addUsage(stats, odd({ input_tokens: 10, output_tokens: 2, cache_read_input_tokens: null }), 3);
    expect(stats).toMatchObject({
      inputTokens: 30010,
      outputTokens: 3,
      cacheReadTokens: 5,
      modelMs: 15,
    });
    expect(tokensSpent(stats)).toBe(30018);
  });

  it('never concatenates a count sent as a string, nor counts a negative or fractional one', () => {
    const stats = emptyStats();
    addUsage(stats, odd({ input_tokens: '30000', output_tokens: '1' }), 0);
    addUsage(
      stats,
      odd({ input_tokens: -5, output_tokens: 1.5, cache_creation_input_tokens: Number.NaN }),
      0,
    );
    expect(stats).toMatchObject({ inputTokens: 0, outputTokens: 0, cacheWriteTokens: 0 });
    expect(typeof stats.inputTokens).toBe('number');
    expect(tokensSpent(stats)).toBe(0);
  });
});

describe('modelCallEvent', () => {
  it('reports only whole non-negative token counts', () => {
    const response = {
      stop_reason: 'end_turn',
      usage: odd({ input_tokens: '7', output_tokens: 2 }),
    };
    expect(modelCallEvent(1, response as Anthropic.Message, 5)).toMatchObject({
      input_tokens: 0,
      output_tokens: 2,
    });
  });
});
