import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors.js';
import { writeResolutions } from './resolve-write-flag.js';

describe('writeResolutions (--resolve-write)', () => {
  it('reads KEY=done|retry, splitting at the last = since keys hold : and =', () => {
    expect(writeResolutions(['resubmit_refund:ORD1001:resubmit=done', 'note:a=b=retry'])).toEqual({
      'resubmit_refund:ORD1001:resubmit': 'done',
      'note:a=b': 'retry',
    });
    expect(writeResolutions(undefined)).toBeUndefined();
  });

  it('refuses anything else with the form and an example', () => {
    for (const flag of ['resubmit_refund:ORD1001', '=done', 'key=maybe', 'key=']) {
      expect(() => writeResolutions([flag])).toThrow(ConfigError);
      expect(() => writeResolutions([flag])).toThrow(
        `--resolve-write takes KEY=done or KEY=retry (KEY as the run printed it, e.g. resubmit_refund:ORD1001:resubmit=done), got '${flag}'`,
      );
    }
  });
});
