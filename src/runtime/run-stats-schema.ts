import { z } from 'zod';

/** A run's stats (RunStats in types.ts) as read back from a file: a checkpoint, a shard result. */
export const RunStatsSchema = z
  .object({
    steps: z.number().int().nonnegative(),
    toolCalls: z.number().int().nonnegative(),
    toolErrors: z.number().int().nonnegative(),
    unconfirmedWrites: z.number().int().nonnegative(),
    inputTokens: z.number().nonnegative(),
    outputTokens: z.number().nonnegative(),
    cacheReadTokens: z.number().nonnegative(),
    cacheWriteTokens: z.number().nonnegative(),
    modelMs: z.number().nonnegative(),
    toolMs: z.number().nonnegative(),
  })
  .strict();
