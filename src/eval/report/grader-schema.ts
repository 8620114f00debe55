import { z } from 'zod';
import { FixtureSourceSchema } from '../../replay/cassette.js';
import { IntervalSchema } from '../stats/interval.js';

/** One score's mean over a row's counted trials (a judged check's, or one a check returns). */
export const ScoreSummarySchema = z
  .object({
    name: z.string(),
    source: z.enum(['check', 'judge']),
    /** Counted trials that have this score. */
    n: z.number().int().min(0),
    mean: z.number().min(0).max(1).nullable(),
    /** Wilson score interval at the mean: a [0, 1] score varies at most as a pass/fail would. */
    interval: IntervalSchema.nullable(),
    threshold: z.number().min(0).max(1),
    /** Trials whose score passed. */
    passed: z.number().int().min(0),
  })
  .strict();
export type ScoreSummary = z.infer<typeof ScoreSummarySchema>;

const KappaSchema = z
  .object({
    method: z.enum(['cohen', 'fleiss']),
    value: z.number().nullable(),
    interval: IntervalSchema.nullable(),
    /** Trials every judge model gave a verdict on. */
    trials: z.number().int().min(0),
  })
  .strict();

/** The judge against a human-labels file: how often they agree, and kappa beyond chance. */
export const CalibrationSchema = z
  .object({
    file: z.string(),
    /** Labels in the file for the trials of this run; `compared` of them got a judge verdict. */
    labelled: z.number().int().min(0),
    compared: z.number().int().min(0),
    agree: z.number().int().min(0),
    accuracy: z.number().min(0).max(1).nullable(),
    /** Wilson interval of the accuracy. */
    accuracyInterval: IntervalSchema.nullable(),
    kappa: z.number().nullable(),
    /** Bootstrap over the compared trials; null at too small an n. */
    kappaInterval: IntervalSchema.nullable(),
  })
  .strict();
export type Calibration = z.infer<typeof CalibrationSchema>;

/**
 * How much a judged check can be trusted, pooled over the task's variants: its own noise
 * (the flip rate across samples of one model), how its models agree (kappa), and how it agrees
 * with humans (calibration). The agent's trial-to-trial variance is pass@k / pass^k, elsewhere.
 */
export const JudgeSummarySchema = z
  .object({
    suite: z.string(),
    task: z.string(),
    check: z.string(),
    models: z.array(z.string()),
    /** The judge script(s) that answered for those models, when one did (offline). */
    script: z.string().optional(),
    /** Largest number of samples one model gave on one trial. */
    samples: z.number().int().min(0),
    /** Trials with a judgment (any verdict), and those whose majority says pass / fail / error. */
    trials: z.number().int().min(0),
    verdicts: z
      .object({
        pass: z.number().int().min(0),
        fail: z.number().int().min(0),
        error: z.number().int().min(0),
      })
      .strict(),
    /** Share of (trial, model) pairs whose samples did not all agree; null with one sample. */
    flipRate: z.number().min(0).max(1).nullable(),
    /** Pairs the flip rate is over. */
    flipPairs: z.number().int().min(0),
    /** Wilson interval of the flip rate (pairs of one trial share its answer: read it as a floor on the width). */
    flipInterval: IntervalSchema.nullable(),
    /** Agreement across judge models (two: Cohen, more: Fleiss); null with one model. */
    kappa: KappaSchema.nullable(),
    calibration: CalibrationSchema.nullable(),
    /** Judge calls of these trials: replayed ones are left out of the live cost and latency. */
    calls: z
      .object({
        replayed: z.number().int().min(0),
        live: z.number().int().min(0),
        recorded: z.number().int().min(0),
        sources: z.array(FixtureSourceSchema),
        liveInputTokens: z.number().int().min(0),
        liveOutputTokens: z.number().int().min(0),
        liveLatencyMs: z
          .object({ p50: z.number().nullable(), p95: z.number().nullable() })
          .strict(),
      })
      .strict(),
  })
  .strict();
export type JudgeSummary = z.infer<typeof JudgeSummarySchema>;

/** One judged check of one trial, as the reports list it. */
export const JudgedTrialSchema = z
  .object({
    suite: z.string(),
    task: z.string(),
    variant: z.string(),
    trial: z.number().int().min(1),
    check: z.string(),
    verdict: z.enum(['pass', 'fail', 'error']),
    score: z.number().min(0).max(1).nullable(),
    votes: z.object({ pass: z.number().int().min(0), fail: z.number().int().min(0) }).strict(),
    calls: z.enum(['replayed', 'live', 'recorded']),
    source: FixtureSourceSchema.optional(),
    human: z.enum(['pass', 'fail']).optional(),
    /** The first sample's reasoning (redacted), or its judge error. */
    reasoning: z.string().optional(),
    errors: z.array(z.string()).optional(),
  })
  .strict();
export type JudgedTrial = z.infer<typeof JudgedTrialSchema>;
