import { describe, expect, it } from 'vitest';
import { dropPower } from './power.js';
import { fixedTrials, forecastRounds } from './sequential-forecast.js';

describe('fixedTrials', () => {
  it("is docs/numbers.md's 113 per side for 1.00 -> 0.90 among 20 rows at power 0.8", () => {
    expect(fixedTrials(1, 0.9, 0.05 / 20, 0.2)).toBe(113);
  });

  it('is the smallest n whose exact Fisher power reaches 1 - beta at another beta', () => {
    const n = fixedTrials(1, 0.8, 0.05, 0.1)!;
    expect(dropPower(n, 1, 0.8, 0.05)).toBeGreaterThanOrEqual(0.9);
    expect(dropPower(n - 1, 1, 0.8, 0.05)).toBeLessThan(0.9);
  });
});

describe('forecastRounds', () => {
  it('forecasts a row at 1.00 among 20 exactly: 23 rounds with no change, about 96 under a drop of D', () => {
    const forecast = forecastRounds({
      p0: 1,
      delta: 0.1,
      alpha: 0.05,
      beta: 0.2,
      rows: 20,
      design: 'paired',
    });
    expect(forecast).toMatchObject({ fixedN: 113, maxRounds: 226 });
    expect(forecast.noChange).toMatchObject({ expected: 23, p95: 23, noDrop: 1, method: 'exact' });
    expect(forecast.drop.expected).toBeCloseTo(96.24, 1);
    // The rule's power at D stays near the fixed design's 0.8, and its wrong "no drop" under beta.
    expect(forecast.drop.drop).toBeGreaterThan(0.8);
    expect(forecast.drop.noDrop).toBeLessThanOrEqual(0.2);
  });
});
