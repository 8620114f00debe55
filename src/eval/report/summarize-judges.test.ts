import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../core/mulberry32.js';
import { judgmentOf, type SampleVerdict } from '../spec/judgment.js';
import type { TrialRecord } from '../spec/trial-record.js';
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED } from '../stats/random.js';
import { summarizeJudges } from './summarize-judges.js';
import { makeRecord } from './testing/records.js';

/** One sample's vote: 'P' passes (score 1), 'F' fails (score 0), 'E' is a judge error. */
function sample(model: string, index: number, letter: string): SampleVerdict {
  if (letter === 'E') return { model, sample: index + 1, error: 'no tool call' };
  return letter === 'P'
    ? { model, sample: index + 1, label: 'pass', score: 1 }
    : { model, sample: index + 1, label: 'fail', score: 0 };
}

/** A judged trial: per model its samples' letters ('PF'), and the human label if any. */
function judged(
  trial: number,
  votes: Record<string, string>,
  human?: 'pass' | 'fail',
): TrialRecord {
  const samples = Object.entries(votes).flatMap(([model, letters]) =>
    [...letters].map((letter, index) => sample(model, index, letter)),
  );
  const judgment = judgmentOf(
    {
      check: 'polite',
      threshold: 0.5,
      models: Object.keys(votes),
      calls: 'replayed',
      ...(human !== undefined && { labels: 'evals/labels.csv', human }),
    },
    samples,
  );
  return makeRecord({ task: 'T7', trial, judgments: [judgment] });
}

/** The Wilson 95% interval written out (z = 1.959963984540054, scipy's norm.ppf(0.975)). */
function wilson95(n: number, c: number) {
  const z = 1.959963984540054;
  const p = c / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
  return { lower: centre - half, upper: centre + half };
}

describe('summarizeJudges', () => {
  it('counts a tie within one model as a fail when the models are compared', () => {
    const [summary] = summarizeJudges([
      judged(1, { a: 'PF', b: 'F' }),
      judged(2, { a: 'PP', b: 'P' }),
      judged(3, { a: 'FF', b: 'P' }),
      judged(4, { a: 'PF', b: 'P' }),
    ])!;
    // Per model a (ties fail): F P F F; b: F P P P. Agreement 2/4; chance
    // P(a pass) P(b pass) + P(a fail) P(b fail) = 1/4 * 3/4 + 3/4 * 1/4 = 3/8;
    // kappa = (1/2 - 3/8) / (1 - 3/8) = 0.2. A tie that passed would give -1/3.
    expect(summary?.kappa).toMatchObject({
      method: 'cohen',
      trials: 4,
      value: expect.closeTo(0.2, 12),
    });
  });

  it('gives the flip rate a 95% Wilson interval over the trials a model was asked twice or more', () => {
    const trials = ['PPP', 'PPF', 'FFF', 'PFF', 'PPP', 'FFF', 'PFP', 'PPP', 'PPP', 'F'].map(
      (letters, index) => judged(index + 1, { a: letters }),
    );
    const [summary] = summarizeJudges(trials)!;
    // 3 of the 9 trials with two samples or more flipped: scipy binomtest(3, 9) wilson 95% is
    // [0.1205838184, 0.6457978644]; at 90% it would be [0.1420, 0.6017].
    expect(summary?.flipRate).toBeCloseTo(3 / 9, 12);
    expect(summary?.flipPairs).toBe(9);
    expect(summary?.flipInterval?.lower).toBeCloseTo(wilson95(9, 3).lower, 8);
    expect(summary?.flipInterval?.upper).toBeCloseTo(wilson95(9, 3).upper, 8);
  });

  describe('calibration against human labels', () => {
    // 14 labelled trials: the judge erred on 2, agreed with the human on 9 of the other 12.
    const rows: Array<[string, 'pass' | 'fail']> = [
      ['P', 'pass'],
      ['P', 'pass'],
      ['P', 'pass'],
      ['P', 'pass'],
      ['P', 'pass'],
      ['F', 'fail'],
      ['F', 'fail'],
      ['F', 'fail'],
      ['F', 'fail'],
      ['P', 'fail'],
      ['P', 'fail'],
      ['F', 'pass'],
      ['E', 'pass'],
      ['E', 'fail'],
    ];
    const records = rows.map(([letter, human], index) => judged(index + 1, { a: letter }, human));
    const calibration = () => summarizeJudges(records)![0]!.calibration!;

    it('compares only the trials the judge gave a verdict on, and puts the interval over them', () => {
      const result = calibration();
      expect(result).toMatchObject({ labelled: 14, compared: 12, agree: 9 });
      expect(result.accuracy).toBeCloseTo(9 / 12, 12);
      // scipy binomtest(9, 12).proportion_ci(method='wilson'): [0.4676946651, 0.9110583316];
      // over the 14 labelled it would be [0.3876442310, 0.8365526825].
      expect(result.accuracyInterval?.lower).toBeCloseTo(0.4676946651, 9);
      expect(result.accuracyInterval?.upper).toBeCloseTo(0.9110583316, 9);
    });

    it('gives the same kappa intervals whatever order the trials come in (a shard merge)', () => {
      const random = mulberry32(7);
      const letter = (pass: number) => (random() < pass ? 'P' : 'F');
      const trials = Array.from({ length: 40 }, (_, index) => {
        const human = random() < 0.6 ? 'pass' : 'fail';
        const judge = letter(human === 'pass' ? 0.8 : 0.3);
        return judged(index + 1, { a: judge, b: letter(judge === 'P' ? 0.7 : 0.4) }, human);
      });
      const intervals = (order: TrialRecord[]) => {
        const [summary] = summarizeJudges(order)!;
        return [summary?.kappa?.interval, summary?.calibration?.kappaInterval];
      };
      const forward = intervals(trials);
      expect(forward.every((interval) => interval !== null && interval !== undefined)).toBe(true);
      // Reversed, and as a 2-shard merge would list them (odd trials, then even ones).
      expect(intervals([...trials].reverse())).toEqual(forward);
      const odd = trials.filter((_, index) => index % 2 === 0);
      const even = trials.filter((_, index) => index % 2 === 1);
      expect(intervals([...odd, ...even])).toEqual(forward);
    });

    it('bootstraps kappa over the compared trials with alpha / 2 in each tail', () => {
      // An independent percentile bootstrap: the same seeded stream over the compared pairs,
      // kappa from the 2x2 table, numpy's linear percentile at 2.5 and 97.5.
      // In canonical order, (judge, human) sorted as text: fail before pass.
      const pairs = rows
        .filter(([letter]) => letter !== 'E')
        .map(([letter, human]) => [letter === 'P', human === 'pass'] as const)
        .sort(
          ([judgeA, humanA], [judgeB, humanB]) =>
            Number(judgeA) - Number(judgeB) || Number(humanA) - Number(humanB),
        );
      const random = mulberry32(BOOTSTRAP_SEED);
      const kappas: number[] = [];
      for (let round = 0; round < BOOTSTRAP_RESAMPLES; round++) {
        const table = [0, 0, 0, 0];
        for (let draw = 0; draw < pairs.length; draw++) {
          const [judge, human] = pairs[Math.floor(random() * pairs.length)]!;
          table[(judge ? 0 : 2) + (human ? 0 : 1)]! += 1;
        }
        const [pp, pf, fp, ff] = table as [number, number, number, number];
        const total = pp + pf + fp + ff;
        const chance = ((pp + pf) * (pp + fp) + (fp + ff) * (pf + ff)) / (total * total);
        if (chance < 1) kappas.push(((pp + ff) / total - chance) / (1 - chance));
      }
      kappas.sort((x, y) => x - y);
      const percentile = (q: number) => {
        const at = q * (kappas.length - 1);
        const low = Math.floor(at);
        return kappas[low]! + (at - low) * ((kappas[low + 1] ?? kappas[low]!) - kappas[low]!);
      };
      const result = calibration();
      expect(result.kappaInterval?.lower).toBeCloseTo(percentile(0.025), 12);
      expect(result.kappaInterval?.upper).toBeCloseTo(percentile(0.975), 12);
    });
  });
});
