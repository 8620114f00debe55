import { describe, expect, it } from 'vitest';
import type { TrialRecord } from '../spec/trial-record.js';
import { decidePaired } from '../stats/sequential.js';
import { buildReport } from './build-report.js';
import { decideRows, roundsOf } from './decisions.js';
import { decisionVerdicts } from './gate-decisions.js';
import { makeRecord } from './testing/records.js';

/** One record per letter: P passed, F failed, E errored; trial numbers from 1. */
function trials(variant: string, outcomes: string, extra: Partial<TrialRecord> = {}) {
  return [...outcomes].map((letter, index) =>
    makeRecord({
      variant,
      trial: index + 1,
      outcome: letter === 'P' ? 'passed' : letter === 'F' ? 'failed' : 'errored',
      cassetteHash: `${variant}-${index + 1}-${extra.case ?? ''}`,
      ...extra,
    }),
  );
}

const SETTINGS = { alpha: 0.05, beta: 0.2, delta: 0.1, undecided: 'warn' as const };
const row = (variant: string) => JSON.stringify(['refund-desk', 'T1', variant]);

describe('roundsOf', () => {
  it('gives a row its pass rate per trial number, a dataset round the mean over its cases', () => {
    const rounds = roundsOf([
      ...trials('upgraded', 'PFP'),
      ...trials('baseline', 'PP', { case: 'q1' }),
      ...trials('baseline', 'PF', { case: 'q2' }),
    ]);
    expect(rounds.get(row('upgraded'))).toEqual([1, 0, 1]);
    expect(rounds.get(row('baseline'))).toEqual([1, 0.5]);
  });

  it('ends at the first round that is not complete: a later trial never stands in for it', () => {
    const rounds = roundsOf([
      ...trials('upgraded', 'PEPP'),
      ...trials('baseline', 'PPP', { case: 'q1' }),
      ...trials('baseline', 'P', { case: 'q2' }),
    ]);
    expect(rounds.get(row('upgraded'))).toEqual([1]);
    expect(rounds.get(row('baseline'))).toEqual([1]);
  });
});

describe('decideRows', () => {
  it('pairs a variant with its baseline round by round, as decidePaired decides the differences', () => {
    const records = [...trials('baseline', 'PPPPPPPPPP'), ...trials('upgraded', 'FFFFFFFFPP')];
    const decisions = decideRows({
      trials: records,
      rows: [
        { suite: 'refund-desk', task: 'T1', variant: 'baseline' },
        { suite: 'refund-desk', task: 'T1', variant: 'upgraded' },
      ],
      baselines: new Map([['refund-desk', 'baseline']]),
      settings: SETTINGS,
    });
    const expected = decidePaired({
      rounds: [1, 1, 1, 1, 1, 1, 1, 1, 0, 0],
      alpha: 0.05,
      beta: 0.2,
      delta: 0.1,
    });
    expect(decisions.rows).toHaveLength(1);
    expect(decisions.rows[0]).toMatchObject({
      task: 'T1',
      variant: 'upgraded',
      against: 'baseline',
      kind: 'baseline',
      state: expected.state,
      rounds: expected.rounds,
      recorded: 10,
    });
    expect(expected.state).toBe('drop');
  });

  it('decides against the reference only rows on other cassettes, and not a dataset row', () => {
    const entry = (variant: string, cassettes: 'same' | 'different') => ({
      suite: 'refund-desk',
      task: 'T1',
      variant,
      flag: 'same' as const,
      passAt1: { before: 1, after: 1 },
      passHatK: { k: 3, before: 1, after: 1 },
      counts: { before: { n: 3, passed: 3 }, after: { n: 3, passed: 3 } },
      cassettes,
    });
    const decisions = decideRows({
      trials: [...trials('a', 'PPP'), ...trials('b', 'PPP'), ...trials('c', 'PPP', { case: 'q1' })],
      rows: [],
      baselines: new Map(),
      comparison: [entry('a', 'same'), entry('b', 'different'), entry('c', 'different')],
      settings: SETTINGS,
    });
    expect(decisions.rows.map((decision) => [decision.variant, decision.kind])).toEqual([
      ['b', 'reference'],
    ]);
    expect(decisions.rows[0]).toMatchObject({ referenceTrials: 3, state: 'undecided' });
    expect(decisions.notDecided?.map((entry) => entry.row)).toEqual(['T1 c against the reference']);
  });
});

describe('the gate reads the decisions', () => {
  const base = {
    suite: 's',
    task: 'T1',
    variant: 'v',
    against: 'baseline',
    kind: 'baseline' as const,
    rounds: 7,
    recorded: 7,
    pValue: 0.01,
    adjustedPValue: 0.01,
    interval: { lower: 0.2, upper: 1 },
  };
  const decisions = (state: 'drop' | 'no-drop' | 'undecided', undecided: 'warn' | 'fail') => ({
    method: 'm',
    ...SETTINGS,
    undecided,
    rows: [{ ...base, state, ...(state === 'undecided' && { moreRounds: 12 }) }],
  });

  it('fails on a drop, passes no drop > delta, warns or fails on undecided as asked', () => {
    expect(decisionVerdicts(decisions('drop', 'warn')).reasons[0]).toMatch(
      /^T1 v against baseline: a drop, decided after 7 trials paired with baseline's/,
    );
    expect(decisionVerdicts(decisions('no-drop', 'fail'))).toEqual({ reasons: [], warnings: [] });
    const warned = decisionVerdicts(decisions('undecided', 'warn'));
    expect(warned.reasons).toEqual([]);
    expect(warned.warnings[0]).toMatch(/undecided after 7 trials .*about 12 more/);
    expect(decisionVerdicts(decisions('undecided', 'fail')).reasons[0]).toMatch(
      /undecided .*\(--undecided fail\)$/,
    );
  });

  it('fails a run whose variant falls from 1.00 to 0 against its baseline, in every report', () => {
    const records = [...trials('baseline', 'P'.repeat(8)), ...trials('upgraded', 'F'.repeat(8))];
    const report = buildReport({ records, trials: 8, floors: [], generatedAt: 'now' });
    expect(report.decisions?.rows[0]).toMatchObject({ variant: 'upgraded', state: 'drop' });
    expect(report.gate.passed).toBe(false);
    // At 3 trials the same fall is undecided: a warning that says how many more would decide it.
    const three = [...trials('baseline', 'PPP'), ...trials('upgraded', 'FFF')];
    const early = buildReport({ records: three, trials: 3, floors: [], generatedAt: 'now' });
    expect(early.gate.passed).toBe(true);
    expect(early.gate.warnings.join('\n')).toMatch(/T1 upgraded against baseline: undecided/);
  });
});
