import { describe, expect, it } from 'vitest';
import { emptyStats, tokensSpent } from '../runtime/stop-rules.js';
import { addUsage, anthropicUsage, emptyUsage } from './token-usage.js';

describe('addUsage', () => {
  it("adds a response's token counts as numbers, into a run's stats or an adapter's usage", () => {
    const stats = emptyStats();
    addUsage(
      stats,
      anthropicUsage({ input_tokens: 30000, output_tokens: 1, cache_read_input_tokens: 5 }),
    );
    addUsage(
      stats,
      anthropicUsage({ input_tokens: 10, output_tokens: 2, cache_read_input_tokens: null }),
    );
    expect(stats).toMatchObject({ inputTokens: 30010, outputTokens: 3, cacheReadTokens: 5 });
    expect(tokensSpent(stats)).toBe(30018);
    const usage = emptyUsage();
    addUsage(usage, { inputTokens: 7, cacheWriteTokens: 2 });
    expect(usage).toEqual({
      inputTokens: 7,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 2,
    });
  });

  it('never concatenates a count sent as a string, nor counts a negative or fractional one', () => {
    const stats = emptyStats();
    addUsage(stats, anthropicUsage({ input_tokens: '30000', output_tokens: '1' }));
    addUsage(
      stats,
      anthropicUsage({
        input_tokens: -5,
        output_tokens: 1.5,
        cache_creation_input_tokens: Number.NaN,
      }),
    );
    addUsage(stats, { inputTokens: '30000' as unknown as number, outputTokens: -1 });
    expect(stats).toMatchObject({ inputTokens: 0, outputTokens: 0, cacheWriteTokens: 0 });
    expect(typeof stats.inputTokens).toBe('number');
    expect(tokensSpent(stats)).toBe(0);
  });
});
