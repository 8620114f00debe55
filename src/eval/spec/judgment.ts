import { z } from 'zod';
import { FixtureSourceSchema } from '../../replay/cassette.js';

/** One verdict asked of one judge model, or why it could not be had. */
export const SampleVerdictSchema = z
  .object({
    model: z.string(),
    /** 1-based, per model. */
    sample: z.number().int().min(1),
    label: z.enum(['pass', 'fail']).optional(),
    score: z.number().min(0).max(1).optional(),
    reasoning: z.string().optional(),
    /** A judge error: no tool call, another tool, a malformed verdict, a refusal, an API error. */
    error: z.string().optional(),
    /** Recorded latency (replayed) or measured (live). */
    latencyMs: z.number().min(0).optional(),
    inputTokens: z.number().int().min(0).optional(),
    outputTokens: z.number().int().min(0).optional(),
  })
  .strict();
export type SampleVerdict = z.infer<typeof SampleVerdictSchema>;

/**
 * One judged check of one trial: every sample of every judge model, and their majority.
 * `calls` says where the verdicts came from: replayed from the judge cassette (not counted in
 * live cost or latency), asked live without recording (`eval --rescore`), or recorded now.
 */
export const JudgmentRecordSchema = z
  .object({
    check: z.string(),
    /** The majority over every sample's vote (a tie is a fail), or `error` if any sample erred. */
    verdict: z.enum(['pass', 'fail', 'error']),
    /** Mean score over the samples that gave one; null when none did. */
    score: z.number().min(0).max(1).nullable(),
    threshold: z.number().min(0).max(1),
    votes: z.object({ pass: z.number().int().min(0), fail: z.number().int().min(0) }).strict(),
    models: z.array(z.string()),
    samples: z.array(SampleVerdictSchema),
    /** The judge script that answered for `models` (offline calls of a judge with `modelScript`). */
    script: z.string().optional(),
    calls: z.enum(['replayed', 'live', 'recorded']),
    /** Where the replayed or recorded calls came from (live API or simulator). */
    source: FixtureSourceSchema.optional(),
    /** The check's human-labels file, when it has one (calibration reads it). */
    labels: z.string().optional(),
    /** The human label of this trial, when that file names it. */
    human: z.enum(['pass', 'fail']).optional(),
  })
  .strict();
export type JudgmentRecord = z.infer<typeof JudgmentRecordSchema>;

/** A sample's vote: its label is pass and its score reaches the threshold (both must say pass). */
export function samplePasses(sample: SampleVerdict, threshold: number): boolean {
  return sample.label === 'pass' && (sample.score ?? 0) >= threshold;
}

/**
 * The judgment of one check from its samples. Any sample with an error makes it `error`: a
 * judge that fails once in N is not trusted to have voted. Otherwise the majority of the votes
 * over all models and samples; a tie is a fail (a pass needs more than half the votes).
 */
export function judgmentOf(
  base: Pick<
    JudgmentRecord,
    'check' | 'threshold' | 'models' | 'calls' | 'source' | 'labels' | 'human' | 'script'
  >,
  samples: readonly SampleVerdict[],
): JudgmentRecord {
  const scored = samples.flatMap((sample) => (sample.score === undefined ? [] : [sample.score]));
  const pass = samples.filter((sample) => samplePasses(sample, base.threshold)).length;
  const erred = samples.some((sample) => sample.error !== undefined);
  const verdict = erred ? 'error' : pass * 2 > samples.length ? 'pass' : 'fail';
  return {
    check: base.check,
    verdict,
    score: scored.length > 0 ? scored.reduce((sum, value) => sum + value, 0) / scored.length : null,
    threshold: base.threshold,
    votes: { pass, fail: samples.length - pass },
    models: base.models,
    ...(base.script !== undefined && { script: base.script }),
    samples: [...samples],
    calls: base.calls,
    ...(base.source !== undefined && { source: base.source }),
    ...(base.labels !== undefined && { labels: base.labels }),
    ...(base.human !== undefined && { human: base.human }),
  };
}

/** One model's verdict on one trial: the majority of its samples' votes (a tie is a fail). */
export function modelVerdict(judgment: JudgmentRecord, model: string): 'pass' | 'fail' | undefined {
  const samples = judgment.samples.filter(
    (sample) => sample.model === model && sample.error === undefined,
  );
  if (samples.length === 0) return undefined;
  const pass = samples.filter((sample) => samplePasses(sample, judgment.threshold)).length;
  return pass * 2 > samples.length ? 'pass' : 'fail';
}

/** The reasoning of the first sample that voted as the majority did (any, on an error). */
export function reasoningOf(judgment: JudgmentRecord): string | undefined {
  const agrees = (sample: SampleVerdict) =>
    judgment.verdict === 'error' ||
    samplePasses(sample, judgment.threshold) === (judgment.verdict === 'pass');
  const reasoning = (
    judgment.samples.find((sample) => sample.reasoning !== undefined && agrees(sample)) ??
    judgment.samples.find((sample) => sample.reasoning !== undefined)
  )?.reasoning;
  // A judge's reasoning is the model's text: shown in messages and reports, so kept short.
  return reasoning !== undefined && reasoning.length > MAX_REASONING_SHOWN
    ? `${reasoning.slice(0, MAX_REASONING_SHOWN)}…`
    : reasoning;
}

/** The longest reasoning messages and report lines show (the record keeps it whole). */
export const MAX_REASONING_SHOWN = 500;
