import { z } from 'zod';
import { TokenUsageSchema } from '../model-api/token-usage.js';

/**
 * Figures of one run, kept in the trace's run_end event and in eval reports; checked when read
 * back from a file (a shard result).
 */
export const RunStatsSchema = z
  .object({
    steps: z.number().int().nonnegative(),
    toolCalls: z.number().int().nonnegative(),
    toolErrors: z.number().int().nonnegative(),
    /** Write tools that executed without an `ask_approved` decision. */
    unconfirmedWrites: z.number().int().nonnegative(),
    ...TokenUsageSchema.shape,
    modelMs: z.number().nonnegative(),
    toolMs: z.number().nonnegative(),
  })
  .strict();
