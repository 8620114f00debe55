import { describe, expect, it } from 'vitest';
import { keepHead, truncateResult } from './truncate.js';

describe('truncateResult', () => {
  it('returns text within the budget unchanged', () => {
    expect(truncateResult('hello', 5)).toBe('hello');
    expect(truncateResult('', 0)).toBe('');
  });

  it('keeps the head and says how many characters were kept', () => {
    expect(truncateResult('abcdefghij', 4)).toBe('abcd\n[truncated: 4 of 10 characters kept]');
  });

  it('keeps nothing but the notice when the budget is zero', () => {
    expect(truncateResult('abc', 0)).toBe('\n[truncated: 0 of 3 characters kept]');
  });

  it('does not split a surrogate pair at the cut and counts what it really kept', () => {
    expect(truncateResult('ab😀cd', 3)).toBe('ab\n[truncated: 2 of 6 characters kept]');
  });
});

describe('keepHead', () => {
  it('cuts to the limit and treats a negative limit as zero', () => {
    expect(keepHead('abcdef', 3)).toBe('abc');
    expect(keepHead('abcdef', -1)).toBe('');
    expect(keepHead('abc', 10)).toBe('abc');
  });
});
