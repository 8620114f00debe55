import { describe, expect, it } from 'vitest';
import { formatAmount, NONE } from './format.js';
import { compareNames } from './order.js';

describe('formatAmount: as Intl.NumberFormat en-US prints it, without loading ICU', () => {
  const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  // biome-ignore format: one table of edge cases
  const values = [
    0, -0, 0.4, 0.5, 1.5, 2.5, -0.3, -0.5, -1.5, 7, 999, 999.5, 1000, 1234.5, 12_345, 999_999.5,
    -1_234_567.49, 123_456_789, 2 ** 31, 1e14 + 0.5, 999_999_999_999_999, 1e15, 1e21, 1e-7,
    Number.MAX_SAFE_INTEGER, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY,
  ];

  it.each(values)('%s', (value) => {
    expect(formatAmount(value)).toBe(intl.format(value));
  });

  it('agrees on 10,000 random amounts of every size and sign', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 10_000; i += 1) {
      const value = (random() - 0.3) * 10 ** Math.floor(random() * 16);
      expect(formatAmount(value), String(value)).toBe(intl.format(value));
    }
  });

  it('prints nothing to average as a dash', () => {
    expect(formatAmount(null)).toBe(NONE);
    expect(formatAmount(undefined)).toBe(NONE);
  });
});

describe('compareNames: natural order', () => {
  it('sorts T10 after T9, and as localeCompare with numeric collation does', () => {
    const names = ['T10', 'T9', 'd3a', 'D3', 'baseline', 'Upgraded', 'T1', 'D10', 'a', 'B'];
    const expected = [...names].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    expect([...names].sort(compareNames)).toEqual(expected);
    expect(expected.indexOf('T9')).toBeLessThan(expected.indexOf('T10'));
  });
});
