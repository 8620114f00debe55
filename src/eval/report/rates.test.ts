import { describe, expect, it } from 'vitest';
import { passHatK } from '../stats/metrics.js';
import { direction } from './rates.js';

// The break (issue 28): no test pinned the exact gate's tolerance; raising it from 1e-9 to 0.1
// passed every test, and with it a real drop on the same cassettes.
describe("direction: the exact gate's tolerance", () => {
  it('calls the smallest real change of a rate a change', () => {
    // 999/1000 -> 998/1000: pass@1 falls by 0.001; pass^3 by about 0.003.
    expect(direction(0.999, 0.998)).toBe(-1);
    expect(direction(0.998, 0.999)).toBe(1);
    // pass^k at large n and k: real rates far below any absolute tolerance worth having.
    const before = passHatK(1000, 700, 600)!;
    const after = passHatK(1000, 699, 600)!;
    expect(before).toBeLessThan(1e-100);
    expect(after).toBeLessThan(before);
    expect(direction(before, after)).toBe(-1);
    expect(direction(1e-12, 0)).toBe(-1);
    expect(direction(0.5, 0.5 - 1e-8)).toBe(-1);
  });

  it('calls round-off between the same rate computed two ways the same', () => {
    const sum = 0.1 + 0.2;
    expect(sum).not.toBe(0.3);
    expect(direction(0.3, sum)).toBe(0);
    expect(direction(2 / 3, 1 - 1 / 3)).toBe(0);
    expect(direction(0.5, 0.5 + 1e-12)).toBe(0);
    // The same k-fold product in another order: equal but for round-off, at any size.
    const small = passHatK(1000, 700, 600)!;
    let reordered = 1;
    for (let i = 599; i >= 0; i--) reordered *= (700 - i) / (1000 - i);
    expect(reordered).not.toBe(small);
    expect(direction(small, reordered)).toBe(0);
  });

  it('compares nothing with a side that has no value', () => {
    expect(direction(null, 0.5)).toBe(0);
    expect(direction(0.5, null)).toBe(0);
  });
});
