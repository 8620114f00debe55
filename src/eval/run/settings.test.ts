import { describe, expect, it } from 'vitest';
import { EVAL_ENV, readEvalSettings, suiteMatches } from './settings.js';

describe('suite selection', () => {
  it('selects a suite by its full name or by a prefix of it, case-insensitively', () => {
    expect(suiteMatches('debug-agent', 'debug-agent')).toBe(true);
    expect(suiteMatches('debug', 'debug-agent')).toBe(true);
    expect(suiteMatches('Debug', 'debug-agent')).toBe(true);
    expect(suiteMatches('debug', 'refund-desk')).toBe(false);
    expect(suiteMatches('debug-agent-x', 'debug-agent')).toBe(false);
  });

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
