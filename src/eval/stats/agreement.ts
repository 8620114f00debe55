import { quantile } from './bootstrap.js';
import { CONFIDENCE, type Interval } from './interval.js';
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, seededRandom } from './random.js';

/**
 * Agreement between raters who put the same subjects into categories: two judges (Cohen's
 * kappa), three or more (Fleiss' kappa), a judge and a human, or one judge with itself across
 * samples (the flip rate). Kappa is agreement beyond what chance would give: 1 is perfect, 0
 * chance, below 0 worse than chance. It is undefined (null) when chance alone agrees fully,
 * e.g. when every rating is `pass`: there is nothing to tell apart.
 */

/**
 * Cohen's kappa of two raters over the same subjects, from their pairs of labels.
 *
 * @example cohenKappa([['pass', 'pass'], ['fail', 'pass'], ['fail', 'fail']]) // 0.4
 */
export function cohenKappa(pairs: ReadonlyArray<readonly [string, string]>): number | null {
  if (pairs.length === 0) return null;
  const labels = [...new Set(pairs.flat())];
  const observed = pairs.filter(([a, b]) => a === b).length / pairs.length;
  const share = (side: 0 | 1, label: string) =>
    pairs.filter((pair) => pair[side] === label).length / pairs.length;
  const expected = labels.reduce((sum, label) => sum + share(0, label) * share(1, label), 0);
  return expected >= 1 ? null : (observed - expected) / (1 - expected);
}

/**
 * Fleiss' kappa: each row is one subject, each column the number of raters who put it in that
 * category; every row must have the same number of raters, at least two.
 *
 * @example fleissKappa([[3, 0], [0, 3], [2, 1]]) // three judges, three trials
 */
export function fleissKappa(counts: ReadonlyArray<readonly number[]>): number | null {
  if (counts.length === 0) return null;
  const raters = counts[0]!.reduce((sum, value) => sum + value, 0);
  if (raters < 2 || counts.some((row) => row.reduce((sum, value) => sum + value, 0) !== raters)) {
    throw new RangeError('fleissKappa needs the same number (>= 2) of raters for every subject');
  }
  const subjects = counts.length;
  const agreement =
    counts.reduce(
      (sum, row) =>
        sum +
        (row.reduce((inner, value) => inner + value * value, 0) - raters) / (raters * (raters - 1)),
      0,
    ) / subjects;
  const categories = counts[0]!.length;
  let chance = 0;
  for (let j = 0; j < categories; j += 1) {
    const share = counts.reduce((sum, row) => sum + (row[j] ?? 0), 0) / (subjects * raters);
    chance += share * share;
  }
  return chance >= 1 ? null : (agreement - chance) / (1 - chance);
}

/** Labels of one subject by several raters as Fleiss counts over `categories`. */
export function countsOf(labels: readonly string[], categories: readonly string[]): number[] {
  return categories.map((category) => labels.filter((label) => label === category).length);
}

/**
 * The share of groups whose labels are not all the same: for one judge asked N times per
 * trial, how often a second asking could flip the verdict. Groups of one label are left out;
 * null when no group has two.
 */
export function flipRate(groups: ReadonlyArray<readonly string[]>): number | null {
  const repeated = groups.filter((group) => group.length >= 2);
  if (repeated.length === 0) return null;
  const flipped = repeated.filter((group) => new Set(group).size > 1).length;
  return flipped / repeated.length;
}

/**
 * Below this many subjects a percentile bootstrap of kappa is no interval: six trials that
 * all agree resample to [1, 1], which reads as certainty where there is almost no evidence.
 */
export const MIN_BOOTSTRAP_SUBJECTS = 10;

/**
 * A percentile bootstrap interval of a statistic over subjects (resampled with replacement,
 * seeded). Resamples where the statistic is undefined are skipped; null when most are, or
 * with fewer than `minSubjects` subjects (default 10): at that n there is nothing to say.
 */
export function bootstrapStatistic<Subject>(
  subjects: readonly Subject[],
  statistic: (sample: readonly Subject[]) => number | null,
  options: { seed?: number; resamples?: number; confidence?: number; minSubjects?: number } = {},
): Interval | null {
  if (subjects.length < Math.max(2, options.minSubjects ?? MIN_BOOTSTRAP_SUBJECTS)) return null;
  const random = seededRandom(options.seed ?? BOOTSTRAP_SEED);
  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  const values: number[] = [];
  for (let round = 0; round < resamples; round += 1) {
    const sample = subjects.map(() => subjects[Math.floor(random() * subjects.length)]!);
    const value = statistic(sample);
    if (value !== null) values.push(value);
  }
  if (values.length < resamples / 2) return null;
  values.sort((a, b) => a - b);
  const alpha = 1 - (options.confidence ?? CONFIDENCE);
  return { lower: quantile(values, alpha / 2), upper: quantile(values, 1 - alpha / 2) };
}
