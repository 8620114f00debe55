import { describe, expect, it } from 'vitest';
import type { Decisions } from '../eval/report/decisions-schema.js';
import { openRows, overBudget } from './record-until-decided.js';

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

describe('overBudget', () => {
  const cost = (usd: number | null, calls: number, unpriced: string[] = []) => ({
    usd,
    calls,
    estimate: false,
    unpriced,
  });
  const spending = (rows: Record<string, ReturnType<typeof cost>>, spent: number | null) => ({
    rows: new Map(Object.entries(rows)),
    spent: cost(spent, 1),
  });

  it('lets a round start while the spent plus its likely cost stay within the budget', () => {
    // Each open row's mean recorded cost per trial times the trials it would add: 2 x 3 x $0.10.
    const now = spending({ a: cost(0.6, 6), b: cost(0.3, 3) }, 0.9);
    expect(overBudget(1.5, now, ['a', 'b'], 3)).toBeUndefined();
    expect(overBudget(1.49, now, ['a', 'b'], 3)).toMatch(
      /^stopped: the next round would likely cost \$0\.6000, and with \$0\.9000 spent that passes --budget \$1\.49/,
    );
    expect(overBudget(undefined, now, ['a', 'b'], 3)).toBeUndefined();
  });

  it('stops when a price is unknown: a budget cannot be kept blind', () => {
    const now = spending({ a: cost(null, 3, ['claude-opus-5']) }, null);
    expect(overBudget(5, now, ['a'], 3)).toMatch(
      /claude-opus-5 has none: add it to harness-evals\.prices\.json/,
    );
  });
});
