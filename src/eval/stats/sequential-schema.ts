import { z } from 'zod';
import { IntervalSchema } from './interval.js';

/**
 * One compared row's sequential decision, recomputed from its rounds in trial order
 * (decidePaired, decideAgainstReference, decideRun), and as the JSON report stores it: parse at
 * the boundary, trust the type inside.
 */
export const SequentialDecisionSchema = z
  .object({
    /** 'drop': a drop is shown; 'no-drop': no drop larger than delta; else undecided at `rounds`. */
    state: z.enum(['drop', 'no-drop', 'undecided']),
    /** Rounds used: the deciding round, or every round up to maxRounds when undecided. */
    rounds: z.number().int().min(0),
    /** The round whose boundary crossing fixed the state (absent when undecided). */
    decidedAt: z.number().int().min(1).optional(),
    /** Anytime-valid p-value of "no drop" (d <= 0) at `rounds`: 1 / the highest drop capital. */
    pValue: z.number().min(0).max(1),
    /** Holm-adjusted over the run's rows (decideRun). */
    adjustedPValue: z.number().min(0).max(1).optional(),
    /**
     * Anytime-valid interval for the drop d (reference minus new pass@1) at `rounds`, built from
     * the decision's own bets: lower end at level alpha / rows, upper end at beta (coverage at
     * least 1 - alpha / rows - beta). Lower end > 0 exactly when the drop capital reaches its
     * threshold; upper end < delta exactly when the no-drop capital does.
     */
    interval: IntervalSchema,
    /** Undecided only: the rounds more that would likely decide it (an extrapolation). */
    moreRounds: z.number().int().min(1).optional(),
  })
  .strict();
export type SequentialDecision = z.infer<typeof SequentialDecisionSchema>;

/** How a compared row ends. */
export type SequentialState = SequentialDecision['state'];
