import { z } from 'zod';
import { ConfigError } from '../../core/errors.js';
import { parseWith } from '../../core/parse.js';
import { PROVIDERS } from '../../model-api/provider.js';
import { FixtureSourceSchema } from '../../replay/cassette.js';
import { ChangesSchema } from '../spec/changes-schema.js';
import { FixtureProblemSchema } from '../spec/trial-record.js';
import { DropTestSchema } from '../stats/drop-test.js';
import { IntervalSchema } from '../stats/interval.js';
import { PassCountsSchema } from '../stats/two-level-bootstrap.js';
import { CostsSchema, RunCostsSchema } from './cost-schema.js';
import { DecisionsSchema } from './decisions-schema.js';
import { JudgedTrialSchema, JudgeSummarySchema, ScoreSummarySchema } from './grader-schema.js';

const RateSchema = z.number().min(0).max(1);
/** Keyed by k ("1", "2", ...); null where fewer than k trials were counted. */
const RateByKSchema = z.record(z.string().regex(/^[1-9]\d*$/), RateSchema.nullable());
/** A mean over trials (or over tasks); null when there was nothing to average. */
const MeanSchema = z.number().nullable();
const TrialNumbersSchema = z.array(z.number().int().min(1));

// Intervals are 95% (see `statistics` in the report for the method of each).
const IntervalByKSchema = z.record(z.string().regex(/^[1-9]\d*$/), IntervalSchema.nullable());

/** Intervals of pass@1, pass@k and pass^k; null where the rate itself is null. */
export const RateIntervalsSchema = z
  .object({
    passAt1: IntervalSchema.nullable(),
    passAtK: IntervalByKSchema,
    passHatK: IntervalByKSchema,
  })
  .strict();
export type RateIntervals = z.infer<typeof RateIntervalsSchema>;

const TokensSchema = z
  .object({ input: MeanSchema, output: MeanSchema, cacheRead: MeanSchema, cacheWrite: MeanSchema })
  .strict();

/** One case of a dataset task under one variant. */
export const CaseRateSchema = z
  .object({
    case: z.string(),
    n: z.number().int().min(0),
    passed: z.number().int().min(0),
    passAt1: RateSchema.nullable(),
  })
  .strict();
export type CaseRate = z.infer<typeof CaseRateSchema>;

/** This variant minus the other variant of the same task (upgraded - baseline). */
export const VariantDeltaSchema = z
  .object({
    against: z.string(),
    passAt1: z.number().nullable(),
    /** The largest k both variants have; null when either counted no trial. */
    k: z.number().int().min(1).nullable(),
    passHatK: z.number().nullable(),
    /** Interval of the pass@1 difference (Newcombe); null when either side counted no trial. */
    passAt1Interval: IntervalSchema.nullable(),
    /** True when that interval leaves out 0: the variants differ at this n. */
    distinguishable: z.boolean().nullable(),
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
    intervals: RateIntervalsSchema,
    /** Trial numbers that reached no verdict; never counted in n. */
    excluded: z
      .object({
        stale: TrialNumbersSchema,
        missing: TrialNumbersSchema,
        errored: TrialNumbersSchema,
        /** Trials whose judge gave no usable verdict (the agent's checks had passed). */
        judgeError: TrialNumbersSchema.optional(),
        /** Of the stale trials, those whose cassette is corrupt, or holds a credential. */
        corrupt: TrialNumbersSchema.optional(),
        secret: TrialNumbersSchema.optional(),
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
    /** Mean scores in 0..1 with their intervals: judged checks, and scores checks return. */
    scores: z.array(ScoreSummarySchema).optional(),
    /** The models its trials used, when they used more than one: the rates mix them. */
    mixedModels: z.array(z.string()).optional(),
    /**
     * A task over cases: each case's counted trials and pass@1. The row's rates are then means
     * over its cases (each case weighted once), and its intervals treat a case's trials as a
     * cluster (see statistics.methods.cases).
     */
    cases: z.array(CaseRateSchema).optional(),
    /** Over 2-4 counted cases: its intervals undercover (a bootstrap over so few), marked †. */
    fewCases: z.literal(true).optional(),
    /** What its trials cost in US dollars (absent in reports before schemaVersion 4). */
    cost: CostsSchema.optional(),
  })
  .strict();
export type TaskSummary = z.infer<typeof TaskSummarySchema>;

/** Suite pass@1 of this variant minus the other's, paired by task (tasks both counted). */
export const SuiteDeltaSchema = z
  .object({
    against: z.string(),
    tasks: z.number().int().min(0),
    passAt1: z.number().nullable(),
    passAt1Interval: IntervalSchema.nullable(),
    distinguishable: z.boolean().nullable(),
  })
  .strict();
export type SuiteDelta = z.infer<typeof SuiteDeltaSchema>;

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
    /** Two-level bootstrap over the tasks and their trials, never narrower than the pooled trials allow. */
    intervals: RateIntervalsSchema,
    /**
     * Fewer than 5 tasks (at least 2): the suite interval and the suite Δ's undercover (a
     * bootstrap over 2-4 heterogeneous tasks covered 75-93% of the time, not 95%). Renderers say so.
     */
    fewTasks: z.boolean(),
    tokens: TokensSchema,
    steps: MeanSchema,
    toolCalls: MeanSchema,
    toolErrors: MeanSchema,
    unconfirmedWrites: MeanSchema,
    toolMs: MeanSchema,
    delta: SuiteDeltaSchema.optional(),
    /** The variant's rows' costs summed (absent in reports before schemaVersion 4). */
    cost: CostsSchema.optional(),
  })
  .strict();
export type VariantSummary = z.infer<typeof VariantSummarySchema>;

const TrialRefShape = {
  suite: z.string(),
  task: z.string(),
  variant: z.string(),
  /** The dataset case, for a task over cases. */
  case: z.string().optional(),
  trial: z.number().int().min(1),
  messages: z.array(z.string()),
};

export const FailedTrialSchema = z
  .object({
    ...TrialRefShape,
    outcome: z.enum(['failed', 'errored', 'judge_error']),
    tracePath: z.string().optional(),
  })
  .strict();
export type FailedTrial = z.infer<typeof FailedTrialSchema>;

export const StaleFixtureSchema = z
  .object({
    ...TrialRefShape,
    outcome: z.enum(['stale', 'missing']),
    /** A stale trial whose cassette is corrupt or holds a credential: named so, not "stale". */
    problem: FixtureProblemSchema.optional(),
    fixture: z.string().optional(),
    rerecordCommand: z.string().optional(),
  })
  .strict();
export type StaleFixture = z.infer<typeof StaleFixtureSchema>;

/** `uncounted`: a side counted no trial (every one stale, missing or errored): neither same nor moved. */
export const ComparisonFlagSchema = z.enum([
  'dropped',
  'improved',
  'same',
  'uncounted',
  'new',
  'gone',
]);
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
    /** Counted trials and passes on either side (absent for a side that did not run). */
    counts: z
      .object({ before: PassCountsSchema.optional(), after: PassCountsSchema.optional() })
      .strict(),
    /**
     * same: every counted trial replayed a cassette with the reference's content hash, so any
     * difference is deterministic. different: re-recorded, live, or other trials.
     */
    cassettes: z.enum(['same', 'different']),
    /** One-sided test of a drop in pass@1 counts; only when cassettes differ and it dropped. */
    dropTest: DropTestSchema.optional(),
  })
  .strict();
export type ComparisonEntry = z.infer<typeof ComparisonEntrySchema>;

export const ComparisonSchema = z
  .object({
    referenceGeneratedAt: z.string(),
    /** One-sided significance level of the drop test. */
    alpha: z.number().gt(0).lt(1),
    entries: z.array(ComparisonEntrySchema),
    /** Reference rows this run did not select (their tasks still exist): not compared. */
    notRun: z
      .array(z.object({ suite: z.string(), task: z.string(), variant: z.string() }).strict())
      .optional(),
  })
  .strict();
export type Comparison = z.infer<typeof ComparisonSchema>;

export const GateResultSchema = z
  .object({
    passed: z.boolean(),
    reasons: z.array(z.string()),
    /** Drops that are not significant at this n: shown, never failing. */
    warnings: z.array(z.string()),
  })
  .strict();
export type GateResult = z.infer<typeof GateResultSchema>;

/** Where one trial's fixture came from. */
export const TrialProvenanceSchema = z
  .object({
    suite: z.string(),
    task: z.string(),
    variant: z.string(),
    case: z.string().optional(),
    trial: z.number().int().min(1),
    outcome: z.string(),
    source: FixtureSourceSchema.optional(),
    /** The wire format the trial's agent spoke (reports name its provider's API). */
    provider: z.enum(PROVIDERS as ['anthropic', 'openai']).optional(),
    host: z.string().optional(),
    model: z.string().optional(),
    recordedAt: z.string().optional(),
    /** sha256 of the cassette's canonical bytes. */
    cassetteHash: z.string().optional(),
    /** sha256 of the judge cassette (`unrecorded` when the judge was asked live). */
    judgeCassetteHash: z.string().optional(),
    /** What its agent calls cost as recorded, in US dollars; null when the model has no price. */
    costUsd: z.number().min(0).nullable().optional(),
  })
  .strict();
export type TrialProvenance = z.infer<typeof TrialProvenanceSchema>;

/** How the intervals and the drop test were computed, so a reader can redo them. */
export const StatisticsSchema = z
  .object({
    confidence: z.number().gt(0).lt(1),
    methods: z.record(z.string(), z.string()),
    bootstrap: z.object({ seed: z.number().int(), resamples: z.number().int().min(1) }).strict(),
  })
  .strict();
export type Statistics = z.infer<typeof StatisticsSchema>;

/** What each row's n can detect if compared on other cassettes (see detectionLimits). */
export const DetectionSchema = z
  .object({
    alpha: z.number().gt(0).lt(1),
    /** The rows that ran: each row's level is alpha / family. */
    family: z.number().int().min(1),
    power: z.number().gt(0).lt(1),
    /** The drop `trialsForPricedDrop` is for. */
    pricedDrop: z.number().gt(0).lt(1),
    rows: z.array(
      z
        .object({
          suite: z.string(),
          task: z.string(),
          variant: z.string(),
          n: z.number().int().min(1),
          /** The pass@1 a drop is measured from: the reference's, else this run's. */
          from: RateSchema,
          /** The smallest drop found with `power`; null when not even a fall to 0 is. */
          detectableDrop: RateSchema.nullable(),
          /** Trials per side for a drop of `pricedDrop` with `power`; null past 10,000 or below it. */
          trialsForPricedDrop: z.number().int().min(1).nullable(),
        })
        .strict(),
    ),
  })
  .strict();
export type Detection = z.infer<typeof DetectionSchema>;

/** 4 added costs (`cost` on rows, variants and the run, `costUsd` per trial). */
export const REPORT_SCHEMA_VERSION = 4;

/** Versions this build reads: 3 is 4 without costs, so a committed reference stays comparable. */
const READABLE_SCHEMA_VERSIONS: readonly number[] = [3, REPORT_SCHEMA_VERSION];

/** `reports/latest.json`; bump `schemaVersion` on any incompatible change. */
export const EvalReportSchema = z
  .object({
    schemaVersion: z.union([z.literal(3), z.literal(REPORT_SCHEMA_VERSION)]),
    generatedAt: z.string(),
    /** Trials requested per task and variant. */
    trials: z.number().int().min(1),
    fixtureSources: z.array(FixtureSourceSchema),
    models: z.array(z.string()),
    /** Distinct hosts the cassettes were recorded against. */
    hosts: z.array(z.string()),
    statistics: StatisticsSchema,
    suites: z.array(z.string()),
    tasks: z.array(TaskSummarySchema),
    summary: z.array(VariantSummarySchema),
    /** Each suite's baseline variant: every other variant's Δ is measured against it. */
    baselines: z.record(z.string(), z.string()).optional(),
    failures: z.array(FailedTrialSchema),
    staleFixtures: z.array(StaleFixtureSchema),
    comparison: ComparisonSchema.optional(),
    /** Each compared row's sequential decision (drop, no drop > delta, undecided). */
    decisions: DecisionsSchema.optional(),
    /** What this checkout changed against the base (`--reference-from`). */
    changes: ChangesSchema.optional(),
    detection: DetectionSchema,
    gate: GateResultSchema,
    /** One entry per trial: source, host, model, recordedAt, cassette hash. */
    trialProvenance: z.array(TrialProvenanceSchema),
    /** Per judged check: its calls, its agreement (samples, models) and its calibration. */
    judges: z.array(JudgeSummarySchema).optional(),
    /** Every judged check of every trial: verdict, votes, score, the first reasoning. */
    judgedTrials: z.array(JudgedTrialSchema).optional(),
    /** What the run's trials cost, and the prices used (absent before schemaVersion 4). */
    cost: RunCostsSchema.optional(),
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
  const version = (data as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version === 'number' && !READABLE_SCHEMA_VERSIONS.includes(version)) {
    throw new ConfigError(
      `${source}: schemaVersion ${version} is not ${READABLE_SCHEMA_VERSIONS.join(' or ')} (this version of harness-evals writes ${REPORT_SCHEMA_VERSION}); regenerate it with npm run eval -- --update-reference (or run the older version to compare)`,
    );
  }
  return parseWith(EvalReportSchema, data, source);
}
