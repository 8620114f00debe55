import { describe, expect, it } from 'vitest';
import { keyOf } from '../report/compare.js';
import { checkNotEmpty, suiteMatches } from './selection.js';
import { EVAL_ENV, readEvalSettings } from './settings.js';

const declared = new Set(
  [
    ['refund-desk', 'T1'],
    ['refund-desk', 'T2'],
    ['debug-agent', 'D1'],
  ].flatMap(([suite = '', task = '']) =>
    ['baseline', 'upgraded'].map((variant) => keyOf({ suite, task, variant })),
  ),
);

function check(selection: { tasks?: string[]; variants?: string[]; suites?: string[] }) {
  const settings = readEvalSettings({
    [EVAL_ENV.tasks]: selection.tasks?.join(','),
    [EVAL_ENV.variants]: selection.variants?.join(','),
    [EVAL_ENV.suites]: selection.suites?.join(','),
  });
  return () => checkNotEmpty(selection, declared, settings);
}

describe('checkNotEmpty', () => {
  it('refuses --task T1 --suite debug, naming the filters and where T1 is', () => {
    expect(check({ tasks: ['T1'], suites: ['debug'] })).toThrow(
      '--task T1 --suite debug selects no trial: no task matches all of them (T1 is in suite refund-desk, variants baseline, upgraded); drop or change one of the filters',
    );
  });

  it('accepts selections that match at least one trial', () => {
    expect(check({ tasks: ['t1'] })).not.toThrow();
    expect(check({ suites: ['debug'], variants: ['upgraded'] })).not.toThrow();
    expect(check({})).not.toThrow();
  });
});

describe('suiteMatches', () => {
  it('selects a suite by its full name or by a prefix of it, case-insensitively', () => {
    expect(suiteMatches('debug-agent', 'debug-agent')).toBe(true);
    expect(suiteMatches('debug', 'debug-agent')).toBe(true);
    expect(suiteMatches('Debug', 'debug-agent')).toBe(true);
    expect(suiteMatches('debug', 'refund-desk')).toBe(false);
    expect(suiteMatches('debug-agent-x', 'debug-agent')).toBe(false);
  });
});
