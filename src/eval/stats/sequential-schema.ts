import { z } from 'zod';
import { IntervalSchema } from './interval.js';

/**
 * A compared row's sequential decision as the JSON report stores it (decidePaired,
 * decideAgainstReference, decideRun): parse at the boundary, trust the type inside.
 */
export const SequentialDecisionSchema = z
  .object({
    state: z.enum(['drop', 'no-drop', 'undecided']),
    /** Rounds used: the deciding round, or every round up to the cap when undecided. */
    rounds: z.number().int().min(0),
    decidedAt: z.number().int().min(1).optional(),
    /** Anytime-valid p-value of "no drop" at `rounds`. */
    pValue: z.number().min(0).max(1),
    /** Holm-adjusted over the run's rows (decideRun). */
    adjustedPValue: z.number().min(0).max(1).optional(),
    /** Anytime-valid interval for the drop in pass@1 (reference minus new). */
    interval: IntervalSchema,
    moreRounds: z.number().int().min(1).optional(),
  })
  .strict();
export type SequentialDecisionRecord = z.infer<typeof SequentialDecisionSchema>;
