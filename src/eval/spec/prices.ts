import { z } from 'zod';

const PerMillion = z.number().min(0).max(10_000);

/**
 * What one model costs, in US dollars per million tokens. `cacheWrite` is the price of a cache
 * write at the default lifetime (Anthropic: 5 minutes; OpenAI: the input price, writing costs
 * nothing extra); `cacheWrite1h` Anthropic's 1-hour write, kept for reference (token counts do
 * not say which lifetime a write had, so costs use `cacheWrite`).
 */
export const PriceSchema = z
  .object({
    input: PerMillion,
    output: PerMillion,
    cacheWrite: PerMillion,
    cacheWrite1h: PerMillion.optional(),
    cacheRead: PerMillion,
  })
  .strict();
export type Price = z.infer<typeof PriceSchema>;

/** `harness-evals.prices.json`: prices that add to or replace the built-in ones, model by model. */
export const PricesFileSchema = z
  .object({
    /** The day these prices were read from the provider's price list. */
    checkedOn: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date such as 2026-12-07')
      .optional(),
    models: z.record(z.string().min(1), PriceSchema),
  })
  .strict();
export type PricesFile = z.infer<typeof PricesFileSchema>;

/** A price and where it came from (the built-in table and its date, or the prices file). */
export interface PricedModel extends Price {
  from: string;
}

/** Every price a report uses, by model id. */
export type PriceTable = ReadonlyMap<string, PricedModel>;

/**
 * The price of `model`: by its id, without an `openai:`/`anthropic:` judge prefix, then without
 * a dated snapshot suffix (`claude-sonnet-4-5-20250929`, `gpt-4.1-mini-2025-04-14`).
 * Undefined when it has none: its cost is unknown, never 0.
 */
export function priceOf(table: PriceTable, model: string | undefined): PricedModel | undefined {
  if (model === undefined) return undefined;
  const id = model.replace(/^(openai|anthropic):/, '');
  return table.get(id) ?? table.get(id.replace(/-(\d{8}|\d{4}-\d{2}-\d{2})$/, ''));
}

export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

/** US dollars for these token counts (input excludes cached tokens, as every adapter counts it). */
export function costOf(price: Price, tokens: TokenCounts): number {
  return (
    (tokens.inputTokens * price.input +
      tokens.outputTokens * price.output +
      (tokens.cacheReadTokens ?? 0) * price.cacheRead +
      (tokens.cacheWriteTokens ?? 0) * price.cacheWrite) /
    1_000_000
  );
}
