import type { Price } from './prices.js';

/**
 * The day the built-in prices were entered. They were typed in by hand, offline, from the
 * providers' published list prices as the person entering them knew them (no network to
 * check): check them against anthropic.com/pricing and openai.com/api/pricing, and correct or
 * add any in `harness-evals.prices.json` (see docs/numbers.md, "What the trials cost").
 */
export const PRICES_ENTERED_ON = '2026-12-07';

/** The committed file, at the project's root, a project puts its own prices in. */
export const PRICES_FILE = 'harness-evals.prices.json';

/**
 * Anthropic: cache writes are 1.25x input (5-minute) or 2x (1-hour), cache reads 0.1x input;
 * written out so the file reads as the price list does (price-table.test.ts checks the ratios).
 */
function anthropic(
  input: number,
  output: number,
  cache: { write: number; write1h: number; read: number },
): Price {
  return {
    input,
    output,
    cacheWrite: cache.write,
    cacheWrite1h: cache.write1h,
    cacheRead: cache.read,
  };
}

/** OpenAI: caching is automatic and writing costs nothing extra; cached input has its own price. */
function openai(input: number, output: number, cacheRead: number): Price {
  return { input, output, cacheWrite: input, cacheRead };
}

/**
 * US dollars per million tokens, list prices (standard tier, no batch discount; Anthropic's
 * prices up to 200K input tokens). Models of this repository's configs and docs whose price was
 * not known offline (claude-opus-5, claude-sonnet-5, claude-haiku-5) are left out on purpose:
 * their cost shows as unknown until a prices file gives them.
 */
export const BUILT_IN_PRICES: Readonly<Record<string, Price>> = {
  'claude-opus-4-5': anthropic(5, 25, { write: 6.25, write1h: 10, read: 0.5 }),
  'claude-opus-4-1': anthropic(15, 75, { write: 18.75, write1h: 30, read: 1.5 }),
  'claude-sonnet-4-5': anthropic(3, 15, { write: 3.75, write1h: 6, read: 0.3 }),
  'claude-sonnet-4': anthropic(3, 15, { write: 3.75, write1h: 6, read: 0.3 }),
  'claude-haiku-4-5': anthropic(1, 5, { write: 1.25, write1h: 2, read: 0.1 }),
  'gpt-5': openai(1.25, 10, 0.125),
  'gpt-5-mini': openai(0.25, 2, 0.025),
  'gpt-5-nano': openai(0.05, 0.4, 0.005),
  'gpt-4.1': openai(2, 8, 0.5),
  'gpt-4.1-mini': openai(0.4, 1.6, 0.1),
  'gpt-4.1-nano': openai(0.1, 0.4, 0.025),
};
