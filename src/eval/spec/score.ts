import { z } from 'zod';

/**
 * A graded result in 0..1, beside pass / fail: what a check may return (or record with
 * `run.score`). It passes when `score >= threshold`; a trajectory match also says `pass`
 * itself, since its order, counts and tool lists can fail however high its F1.
 *
 * @example check: ({ answer }) => ({ name: 'mentions', score: hits / 4, threshold: 0.75 })
 */
export interface Score {
  score: number;
  /** Default 1: a score passes at full marks unless a threshold says otherwise. */
  threshold?: number;
  /** Names the score in reports and floors (default `check`). */
  name?: string;
  /** Overrides `score >= threshold` (a trajectory match's own verdict). */
  pass?: boolean;
  /** Why, when it did not pass (the first diverging step of a trajectory). */
  message?: string | undefined;
}

export const DEFAULT_SCORE_THRESHOLD = 1;
const SCORE_NAME = /^[A-Za-z0-9_.:-]{1,60}$/;

/** One score of one trial, as reports keep it. */
export const ScoreRecordSchema = z
  .object({
    name: z.string(),
    value: z.number().min(0).max(1),
    threshold: z.number().min(0).max(1),
    passed: z.boolean(),
    /** `check`: returned or recorded by the task's check; `judge`: a judged check's mean score. */
    source: z.enum(['check', 'judge']),
    message: z.string().optional(),
  })
  .strict();
export type ScoreRecord = z.infer<typeof ScoreRecordSchema>;

/** A value a check returned that reads as a score (or a list of them). */
export function isScoreLike(value: unknown): value is Score {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'score' in value;
}

/**
 * A score checked and turned into its record; a broken one (not a number in 0..1, a bad
 * threshold or name) throws a TypeError whose message says what to return instead.
 */
export function toScoreRecord(value: Score | number, options: Partial<Score> = {}): ScoreRecord {
  const score: Score =
    typeof value === 'number' ? { ...options, score: value } : { ...options, ...value };
  if (typeof score.score !== 'number' || !(score.score >= 0 && score.score <= 1)) {
    throw new TypeError(
      `a score of ${String(score.score)} is not a number from 0 to 1: return { score, threshold } with 0 <= score <= 1`,
    );
  }
  const threshold = score.threshold ?? DEFAULT_SCORE_THRESHOLD;
  if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 1)) {
    throw new TypeError(`a score threshold of ${String(threshold)} is not a number from 0 to 1`);
  }
  const name = score.name ?? 'check';
  if (typeof name !== 'string' || !SCORE_NAME.test(name)) {
    throw new TypeError(
      `the score name ${JSON.stringify(name)} is invalid: use 1-60 letters, digits, '.', ':', '_' or '-'`,
    );
  }
  if (score.pass !== undefined && typeof score.pass !== 'boolean') {
    throw new TypeError(`a score's pass must be true or false, got ${String(score.pass)}`);
  }
  return {
    name,
    value: score.score,
    threshold,
    passed: score.pass ?? score.score >= threshold,
    source: 'check',
    ...(typeof score.message === 'string' && score.message !== '' && { message: score.message }),
  };
}
