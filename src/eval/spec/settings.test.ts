import { describe, expect, it } from 'vitest';
import { EVAL_ENV, readEvalSettings } from './settings.js';

describe('suite selection', () => {
  it('lets --suite debug run the debug-agent tasks only', () => {
    const settings = readEvalSettings({ [EVAL_ENV.suites]: 'debug' });
    expect(settings.selects('debug-agent', 'D1')).toBe(true);
    expect(settings.selects('refund-desk', 'T1')).toBe(false);
  });

  it('selects every suite when none is asked for', () => {
    const settings = readEvalSettings({});
    expect(settings.selects('debug-agent', 'D1')).toBe(true);
    expect(settings.selects('refund-desk', 'T1')).toBe(true);
  });
});

describe('readEvalSettings: which trials and rows', () => {
  it('takes --trials all as every recorded trial of each row, and N as trials 1..N', () => {
    const all = readEvalSettings({ HARNESS_EVAL_TRIALS: 'all' });
    expect(all).toMatchObject({ recordedTrials: true, trialNumbers: [] });
    const three = readEvalSettings({ HARNESS_EVAL_TRIALS: '3' });
    expect(three).toMatchObject({ recordedTrials: false, trialNumbers: [1, 2, 3] });
  });

  it('selects only the rows HARNESS_EVAL_ROWS lists, and every row without it', () => {
    const rows = JSON.stringify([JSON.stringify(['refund-desk', 'T1', 'upgraded'])]);
    const some = readEvalSettings({ HARNESS_EVAL_ROWS: rows });
    expect(some.selectsRow('refund-desk', 'T1', 'upgraded')).toBe(true);
    expect(some.selectsRow('refund-desk', 'T1', 'baseline')).toBe(false);
    expect(some.selectsRow('refund-desk', 'T2', 'upgraded')).toBe(false);
    expect(readEvalSettings({}).selectsRow('refund-desk', 'T2', 'baseline')).toBe(true);
  });
});
