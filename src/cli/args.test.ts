import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { fraction, nearestFlag, parseCliArgs } from './args.js';

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

describe('parseCliArgs: an unknown flag', () => {
  const options = {
    trials: { type: 'string' },
    task: { type: 'string' },
    'update-reference': { type: 'boolean' },
  } as const;
  const refusal = (args: string[]) => {
    try {
      parseCliArgs({ args, options });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('accepted');
  };

  it('suggests the nearest flag (a swap, a slip, a missing letter) and --help, in one line', () => {
    expect(refusal(['--trails', '3'])).toBe(
      'unknown flag --trails: did you mean --trials? (--help lists the flags)',
    );
    expect(refusal(['--tsk=T1'])).toBe(
      'unknown flag --tsk: did you mean --task? (--help lists the flags)',
    );
    expect(refusal(['--update-refrence'])).toContain('did you mean --update-reference?');
  });

  it('suggests nothing it cannot stand behind', () => {
    expect(refusal(['--bogus'])).toBe('unknown flag --bogus (--help lists the flags)');
    expect(nearestFlag('-x', ['trials', 'task'])).toBeUndefined();
  });
});
