import { z } from 'zod';
import { ConfigError } from '../../core/errors.js';
import { parseWith } from '../../core/parse.js';
import { FixtureSourceSchema } from '../trial-record.js';

const RateSchema = z.number().min(0).max(1);
/** Keyed by k ("1", "2", ...); null where fewer than k trials were counted. */
const RateByKSchema = z.record(z.string().regex(/^[1-9]\d*$/), RateSchema.nullable());
/** A mean over trials (or over tasks); null when there was nothing to average. */
const MeanSchema = z.number().nullable();
const TrialNumbersSchema = z.array(z.number().int().min(1));

const TokensSchema = z
  .object({ input: MeanSchema, output: MeanSchema, cacheRead: MeanSchema, cacheWrite: MeanSchema })
  .strict();

/** This variant minus the other variant of the same task (upgraded - baseline). */
export const VariantDeltaSchema = z
  .object({
    against: z.string(),
    passAt1: z.number().nullable(),
    /** The largest k both variants have; null when either counted no trial. */
    k: z.number().int().min(1).nullable(),
    passHatK: z.number().nullable(),
  })
  .strict();
export type VariantDelta = z.infer<typeof VariantDeltaSchema>;

/** Scores and costs of one (suite, task, variant); means are per counted trial. */
export const TaskSummarySchema = z
  .object({
    suite: z.string(),
    task: z.string(),
    title: z.string(),
    variant: z.string(),
    /** Counted trials: passed + failed. */
    n: z.number().int().min(0),
    passed: z.number().int().min(0),
    passAt1: RateSchema.nullable(),
    passAtK: RateByKSchema,
    passHatK: RateByKSchema,
    /** Trial numbers that reached no verdict; never counted in n. */
    excluded: z
      .object({
        stale: TrialNumbersSchema,
        missing: TrialNumbersSchema,
        errored: TrialNumbersSchema,
      })
      .strict(),
    tokens: TokensSchema,
    steps: MeanSchema,
    toolCalls: MeanSchema,
    toolErrors: MeanSchema,
    unconfirmedWrites: MeanSchema,
    /** Nearest-rank percentiles over every model call of the counted trials. */
    modelLatencyMs: z.object({ p50: MeanSchema, p95: MeanSchema }).strict(),
    toolMs: MeanSchema,
    delta: VariantDeltaSchema.optional(),
  })
  .strict();
export type TaskSummary = z.infer<typeof TaskSummarySchema>;

/** Suite figures for one variant: means over the tasks that counted at least one trial. */
export const VariantSummarySchema = z
  .object({
    suite: z.string(),
    variant: z.string(),
    tasks: z.number().int().min(0),
    /** Tasks left out of the means because none of their trials counted. */
    excludedTasks: z.array(z.string()),
    passAt1: RateSchema.nullable(),
    passAtK: RateByKSchema,
    passHatK: RateByKSchema,
    tokens: TokensSchema,
    steps: MeanSchema,
    toolCalls: MeanSchema,
    toolErrors: MeanSchema,
    unconfirmedWrites: MeanSchema,
    toolMs: MeanSchema,
  })
  .strict();
export type VariantSummary = z.infer<typeof VariantSummarySchema>;

const TrialRefShape = {
  suite: z.string(),
  task: z.string(),
  variant: z.string(),
  trial: z.number().int().min(1),
  messages: z.array(z.string()),
};

export const FailedTrialSchema = z
  .object({
    ...TrialRefShape,
    outcome: z.enum(['failed', 'errored']),
    tracePath: z.string().optional(),
  })
  .strict();
export type FailedTrial = z.infer<typeof FailedTrialSchema>;

export const StaleFixtureSchema = z
  .object({
    ...TrialRefShape,
    outcome: z.enum(['stale', 'missing']),
    fixture: z.string().optional(),
    rerecordCommand: z.string().optional(),
  })
  .strict();
export type StaleFixture = z.infer<typeof StaleFixtureSchema>;

export const ComparisonFlagSchema = z.enum(['dropped', 'improved', 'same', 'new', 'gone']);
export type ComparisonFlag = z.infer<typeof ComparisonFlagSchema>;

const BeforeAfterShape = { before: RateSchema.nullable(), after: RateSchema.nullable() };

export const ComparisonEntrySchema = z
  .object({
    suite: z.string(),
    task: z.string(),
    variant: z.string(),
    flag: ComparisonFlagSchema,
    passAt1: z.object(BeforeAfterShape).strict(),
    /** At the largest k both reports have (or the one side's largest k for new/gone). */
    passHatK: z.object({ k: z.number().int().min(1).nullable(), ...BeforeAfterShape }).strict(),
  })
  .strict();
export type ComparisonEntry = z.infer<typeof ComparisonEntrySchema>;

export const ComparisonSchema = z
  .object({
    referenceGeneratedAt: z.string(),
    entries: z.array(ComparisonEntrySchema),
    /** Reference rows this run did not select (their tasks still exist): not compared. */
    notRun: z
      .array(z.object({ suite: z.string(), task: z.string(), variant: z.string() }).strict())
      .optional(),
  })
  .strict();
export type Comparison = z.infer<typeof ComparisonSchema>;

export const GateResultSchema = z
  .object({ passed: z.boolean(), reasons: z.array(z.string()) })
  .strict();
export type GateResult = z.infer<typeof GateResultSchema>;

/** `reports/latest.json`; bump `schemaVersion` on any incompatible change. */
export const EvalReportSchema = z
  .object({
    schemaVersion: z.literal(1),
    generatedAt: z.string(),
    /** Trials requested per task and variant. */
    trials: z.number().int().min(1),
    fixtureSources: z.array(FixtureSourceSchema),
    models: z.array(z.string()),
    suites: z.array(z.string()),
    tasks: z.array(TaskSummarySchema),
    summary: z.array(VariantSummarySchema),
    failures: z.array(FailedTrialSchema),
    staleFixtures: z.array(StaleFixtureSchema),
    comparison: ComparisonSchema.optional(),
    gate: GateResultSchema,
  })
  .strict();
export type EvalReport = z.infer<typeof EvalReportSchema>;

/**
 * Parse a report read from disk (raw text or already-parsed JSON).
 *
 * @example parseReport(await readFile(path, 'utf8'), path)
 * @throws ConfigError naming `source` and the first offending field.
 */
export function parseReport(json: unknown, source: string): EvalReport {
  let data = json;
  if (typeof json === 'string') {
    try {
      data = JSON.parse(json);
    } catch (error) {
      throw new ConfigError(`${source}: not valid JSON (${(error as Error).message})`, {
        cause: error,
      });
    }
  }
  return parseWith(EvalReportSchema, data, source);
}
