import { describe, expect, it } from 'vitest';
import { withoutStaleLabels } from './human-labels.js';
import { type JudgmentRecord, judgmentOf } from './judgment.js';

const NOW = `sha256:${'a'.repeat(64)}`;
const BEFORE = `sha256:${'b'.repeat(64)}`;

function judged(check: string, human: 'pass' | 'fail'): JudgmentRecord {
  return judgmentOf(
    { check, threshold: 0.5, models: ['m'], calls: 'replayed', labels: 'labels.json', human },
    [{ model: 'm', sample: 1, label: 'pass', score: 1 }],
  );
}

describe('withoutStaleLabels', () => {
  const judges = [
    {
      name: 'tone',
      humanLabels: {
        labels: [{ variant: 'v', trial: 1, label: 'fail' as const, cassette: BEFORE }],
      },
    },
    {
      name: 'facts',
      humanLabels: { labels: [{ variant: 'v', trial: 1, label: 'pass' as const, cassette: NOW }] },
    },
    { name: 'hand', humanLabels: { labels: [{ variant: 'v', trial: 1, label: 'pass' as const }] } },
  ];
  const judgments = [judged('tone', 'fail'), judged('facts', 'pass'), judged('hand', 'pass')];

  it('drops the human label keyed to a cassette the trial did not run on, and keeps current and unkeyed ones', () => {
    const kept = withoutStaleLabels(judgments, judges, {
      variant: 'v',
      trial: 1,
      cassetteHash: NOW,
    });
    expect(kept.map((judgment) => [judgment.check, judgment.human])).toEqual([
      ['tone', undefined],
      ['facts', 'pass'],
      ['hand', 'pass'],
    ]);
    expect(kept[0]).not.toHaveProperty('human');
    expect(kept[0]?.labels).toBe('labels.json');
  });

  it('keeps every label of a trial with no cassette hash (nothing to compare with)', () => {
    expect(withoutStaleLabels(judgments, judges, { variant: 'v', trial: 1 })).toEqual(judgments);
  });
});
