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
