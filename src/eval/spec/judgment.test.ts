import { describe, expect, it } from 'vitest';
import { judgmentOf } from './judgment.js';

describe('judgmentOf', () => {
  it('scores a judgment as the mean over the samples that gave a score, an error being none', () => {
    const judgment = judgmentOf(
      { check: 'polite', threshold: 0.5, models: ['a'], calls: 'replayed' },
      [
        { model: 'a', sample: 1, label: 'pass', score: 0.9 },
        { model: 'a', sample: 2, label: 'pass', score: 0.6 },
        { model: 'a', sample: 3, error: 'no tool call' },
      ],
    );
    // (0.9 + 0.6) / 2 = 0.75; an error counted as 0 would give 1.5 / 3 = 0.5.
    expect(judgment.score).toBeCloseTo(0.75, 12);
    expect(judgment.verdict).toBe('error');
    const none = judgmentOf({ check: 'polite', threshold: 0.5, models: ['a'], calls: 'replayed' }, [
      { model: 'a', sample: 1, error: 'refused' },
    ]);
    expect(none.score).toBeNull();
  });
});
