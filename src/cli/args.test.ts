import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { fraction } from './args.js';

describe('fraction', () => {
  it('reads a number between 0 and 1, and nothing when the flag is absent', () => {
    expect(fraction('--alpha', '0.05')).toBe(0.05);
    expect(fraction('--alpha', undefined)).toBeUndefined();
  });

  it.each(['0', '1', '-0.1', 'abc', ''])('refuses %j, naming the flag', (value) => {
    expect(() => fraction('--alpha', value)).toThrow(ConfigError);
    expect(() => fraction('--alpha', value)).toThrow(/--alpha takes a number between 0 and 1/);
  });
});
