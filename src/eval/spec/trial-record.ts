import { z } from 'zod';
import { PROVIDERS } from '../../model-api/provider.js';
import { FixtureSourceSchema } from '../../replay/cassette.js';
import { RunStatusSchema } from '../../runtime/journal/records.js';
import { RunStatsSchema } from '../../runtime/run-stats-schema.js';
import { JudgmentRecordSchema } from './judgment.js';
import { ScoreRecordSchema } from './score.js';

/**
 * How one trial ended. Only `passed` and `failed` enter pass@k / pass^k; stale,
 * missing and errored trials are listed, never counted as passes or failures. `judge_error`:
 * the agent's checks passed but a judge gave no usable verdict (no tool call, another tool, a
 * malformed verdict, a refusal, an API error): the judge's fault, not the agent's, and no pass.
 */
export const TrialOutcomeSchema = z.enum([
  'passed',
  'failed',
  'stale',
  'missing',
  'errored',
  'judge_error',
]);
export type TrialOutcome = z.infer<typeof TrialOutcomeSchema>;

/** Why a cassette did not replay other than going stale: `corrupt` (unreadable, invalid, another trial's), `secret` (it holds a credential). */
export const FixtureProblemSchema = z.enum(['corrupt', 'secret']);
export type FixtureProblem = z.infer<typeof FixtureProblemSchema>;

/** One trial of one task under one variant: what the eval reporter hands to metrics and reports. */
export const TrialRecordSchema = z
  .object({
    suite: z.string(),
    task: z.string(),
    title: z.string(),
    variant: z.string(),
    /** The dataset case this trial ran (a task over cases); absent for a task with one prompt. */
    case: z.string().optional(),
    /** That case's `expected`, as text: a string as it is, anything else as indented JSON. */
    expected: z.string().optional(),
    trial: z.number().int().min(1),
    /** The suite's baseline variant, as its agent declares it: deltas are measured against it. */
    baseline: z.string().optional(),
    outcome: TrialOutcomeSchema,
    /** A `stale` trial whose cassette could not be replayed at all: unreadable or invalid, or holding a credential. */
    fixtureProblem: FixtureProblemSchema.optional(),
    /** Assertion messages of a failed trial, or the error of a stale/missing/errored one. */
    messages: z.array(z.string()),
    /** The run's stop status (done, max_steps, ...), when it ran. */
    status: RunStatusSchema.optional(),
    stats: RunStatsSchema.optional(),
    /** Per model call, as recorded in the cassette (replay) or measured (live). */
    modelLatenciesMs: z.array(z.number()),
    fixture: z.string().optional(),
    /** Which cassette a stale or missing trial lacks: its own (the default) or its judge's. */
    staleCassette: z.enum(['trial', 'judge']).optional(),
    tracePath: z.string().optional(),
    source: FixtureSourceSchema.optional(),
    /** Recording: this run wrote the trial's cassette (a failed check does not unwrite it). */
    written: z.boolean().optional(),
    /** The wire format the agent spoke: reports name the provider's API. */
    provider: z.enum(PROVIDERS as ['anthropic', 'openai']).optional(),
    model: z.string().optional(),
    recordedAt: z.string().optional(),
    /** Host of the base URL the cassette was recorded against (127.0.0.1 for the simulator). */
    host: z.string().optional(),
    /** sha256 of the cassette's canonical bytes: equal hashes replay identically. */
    cassetteHash: z.string().optional(),
    /**
     * sha256 of the judge cassette the verdicts came from (`trial-<n>.judge.json`); `unrecorded`
     * when the judge was asked live and nothing was written (`eval --rescore`).
     */
    judgeCassetteHash: z.string().optional(),
    /** Scores in 0..1 the check returned or recorded, and each judged check's mean score. */
    scores: z.array(ScoreRecordSchema).optional(),
    /** Each judged check's verdicts, sample by sample. */
    judgments: z.array(JudgmentRecordSchema).optional(),
  })
  .strict();
export type TrialRecord = z.infer<typeof TrialRecordSchema>;

/** A minimum a task declares for a variant; the gate fails when it does not hold. */
export const FloorSchema = z
  .object({
    variant: z.string(),
    passAt1: z.number().min(0).max(1).optional(),
    /** pass^k at the largest k that was run. */
    passHatK: z.number().min(0).max(1).optional(),
    /** The score `meanScore` is about: a judged check's name, or a score a check returns. */
    score: z.string().optional(),
    /** Minimum mean of that score over the counted trials. */
    meanScore: z.number().min(0).max(1).optional(),
  })
  .strict();
export type Floor = z.infer<typeof FloorSchema>;
