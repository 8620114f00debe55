import { describe, expect, it } from 'vitest';
import type { Decisions } from '../eval/report/decisions-schema.js';
import { openRows } from './record-until-decided.js';

describe('openRows', () => {
  it('keeps each undecided row open, and the baseline of an undecided paired row', () => {
    const row = {
      suite: 's',
      task: 'T1',
      against: 'baseline',
      kind: 'baseline' as const,
      rounds: 3,
      recorded: 3,
      pValue: 1,
      adjustedPValue: 1,
      interval: { lower: -1, upper: 1 },
    };
    const decisions: Decisions = {
      method: 'm',
      alpha: 0.05,
      beta: 0.2,
      delta: 0.1,
      undecided: 'warn',
      rows: [
        { ...row, variant: 'a', state: 'undecided' },
        { ...row, variant: 'b', state: 'drop' },
        { ...row, variant: 'c', state: 'undecided', kind: 'reference', against: 'reference' },
      ],
    };
    expect(openRows(decisions)).toEqual(
      [
        JSON.stringify(['s', 'T1', 'a']),
        JSON.stringify(['s', 'T1', 'baseline']),
        JSON.stringify(['s', 'T1', 'c']),
      ].sort(),
    );
  });
});
