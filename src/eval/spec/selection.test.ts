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
  it('refuses --task T1 --suite debug, naming the filter that emptied it and where T1 is', () => {
    expect(check({ tasks: ['T1'], suites: ['debug'] })).toThrow(
      '--task T1 --suite debug selects no trial: --task T1 or --suite debug leaves out every trial the other filters pick (T1 is in suite refund-desk, variants baseline, upgraded); drop or change one of them',
    );
    expect(check({ tasks: ['D1'], suites: ['debug'], variants: ['strict'] })).toThrow(
      '--task D1 --variant strict --suite debug selects no trial: --variant strict leaves out every trial the other filters pick (D1 is in suite debug-agent, variants baseline, upgraded); drop or change it',
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
