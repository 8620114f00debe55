import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { parseFaults } from './faults.js';

describe('parseFaults', () => {
  it('reads statuses in order, with an optional retry-after', () => {
    expect(parseFaults('429:2, 529,500')).toEqual([
      { status: 429, retryAfterSeconds: 2 },
      { status: 529 },
      { status: 500 },
    ]);
  });

  it.each(['200', 'abc', '429:x', '600'])('rejects %s, naming it', (text) => {
    expect(() => parseFaults(text)).toThrow(ConfigError);
    expect(() => parseFaults(text)).toThrow(`'${text}'`);
  });
});
