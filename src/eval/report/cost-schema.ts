import { z } from 'zod';

/** A sum of model calls in US dollars, from their recorded token counts and a price table. */
export const CostSchema = z
  .object({
    /** Null when some call's model has no price: unknown, never 0. */
    usd: z.number().min(0).nullable(),
    /** Agent trials (or judge calls) with token counts that the sum is over. */
    calls: z.number().int().min(0),
    /** Some of those token counts are the simulator's estimates: so is the cost. */
    estimate: z.boolean(),
    /** Models of those calls without a price (then usd is null). */
    unpriced: z.array(z.string()),
  })
  .strict();
export type Cost = z.infer<typeof CostSchema>;

/**
 * What a row, a variant or the run cost. `recorded` and `judges`: what recording these trials
 * (and their judges' verdicts) cost, whenever that was. `run` and `runJudges`: what this run
 * spent, i.e. the trials it recorded and the judge calls it made; a replay spends 0.
 */
export const CostsSchema = z
  .object({
    recorded: CostSchema,
    judges: CostSchema,
    run: CostSchema,
    runJudges: CostSchema,
  })
  .strict();
export type Costs = z.infer<typeof CostsSchema>;

/** One price the report used, per million tokens, and where it came from. */
export const PriceEntrySchema = z
  .object({
    model: z.string(),
    input: z.number().min(0),
    output: z.number().min(0),
    cacheWrite: z.number().min(0),
    cacheWrite1h: z.number().min(0).optional(),
    cacheRead: z.number().min(0),
    from: z.string(),
  })
  .strict();

/** The run's totals and the prices behind every figure. */
export const RunCostsSchema = CostsSchema.extend({
  prices: z.array(PriceEntrySchema),
}).strict();
export type RunCosts = z.infer<typeof RunCostsSchema>;
