import { describe, expect, it } from 'vitest';
import { approvalFlags, bareDecisions } from './approve-flag.js';

describe('--approve / --reject', () => {
  it('reads a bare flag (last, or before another flag) as every listed call', () => {
    expect(bareDecisions(['--resume', 'r', '--approve'])).toEqual(['--resume', 'r', '--approve=']);
    expect(bareDecisions(['--reject', '--verbose'])).toEqual(['--reject=', '--verbose']);
    expect(bareDecisions(['--approve', 'abc'])).toEqual(['--approve', 'abc']);
    expect(approvalFlags([''], undefined)).toBe(true);
    expect(approvalFlags(undefined, [''])).toBe(false);
    expect(approvalFlags(undefined, undefined)).toBeUndefined();
  });

  it('answers per hash, comma-separated or repeated', () => {
    expect(approvalFlags(['a1,b2', 'c3'], ['d4'])).toEqual({
      a1: true,
      b2: true,
      c3: true,
      d4: false,
    });
  });

  it('refuses a bare flag with hashes, or one hash given both answers', () => {
    expect(() => approvalFlags(['', 'a1'], undefined)).toThrow(/alone .* or each with the hashes/);
    expect(() => approvalFlags([''], [''])).toThrow(/alone/);
    expect(() => approvalFlags(['a1'], ['a1'])).toThrow(/hash a1 is given to both/);
  });
});
