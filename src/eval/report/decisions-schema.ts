import { z } from 'zod';
import { SequentialDecisionSchema } from '../stats/sequential-schema.js';

/** The smallest drop in pass@1 that matters (`--delta`). */
export const DEFAULT_DELTA = 0.1;
/** The chance of saying "no drop larger than delta" when the drop is delta or more (`--beta`). */
export const DEFAULT_BETA = 0.2;

/**
 * One compared row's sequential decision (docs/numbers.md, "Deciding with the fewest trials"):
 * a variant against the reference (its re-recorded trials against the reference's fixed ones),
 * or against its suite's baseline (both growing, paired by trial number). The decision's own
 * fields are the stats' SequentialDecisionSchema; this adds which row, against what.
 */
export const RowDecisionSchema = SequentialDecisionSchema.extend({
  suite: z.string(),
  task: z.string(),
  variant: z.string(),
  /** `reference`: reports/reference.json (or --compare); else the baseline variant's name. */
  against: z.string(),
  kind: z.enum(['reference', 'baseline']),
  /** Complete rounds the row has (more than `rounds` once it was decided earlier). */
  recorded: z.number().int().min(0),
  /** The reference's fixed trials (against the reference only). */
  referenceTrials: z.number().int().min(0).optional(),
  /** Holm-adjusted over every compared row of the run. */
  adjustedPValue: z.number().min(0).max(1),
  /** Against a fixed reference: what its n allows (referenceLimit's line). */
  limit: z.string().optional(),
}).strict();
export type RowDecision = z.infer<typeof RowDecisionSchema>;

export const DecisionsSchema = z
  .object({
    method: z.string(),
    alpha: z.number().gt(0).lt(1),
    beta: z.number().gt(0).lt(1),
    delta: z.number().gt(0).lt(1),
    /** The cap on rounds per row (`--max-trials`), when one was given. */
    maxTrials: z.number().int().min(1).optional(),
    /** What an undecided row does to the gate (`--undecided warn|fail`). */
    undecided: z.enum(['warn', 'fail']),
    rows: z.array(RowDecisionSchema),
    /** Rows left out, and why (a dataset row against a fixed reference, say). */
    notDecided: z.array(z.object({ row: z.string(), why: z.string() }).strict()).optional(),
  })
  .strict();
export type Decisions = z.infer<typeof DecisionsSchema>;

/** What a run was asked to decide with (the eval and record flags). */
export interface DecisionSettings {
  alpha: number;
  beta: number;
  delta: number;
  maxTrials?: number;
  undecided: 'warn' | 'fail';
}
