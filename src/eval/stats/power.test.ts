import { describe, expect, it } from 'vitest';
import { DETECTION_POWER, detectableDrop, dropPower, trialsNeeded } from './power.js';

// compute-reference.py: sum over every pair of pass counts of scipy's binom.pmf where
// scipy.stats.fisher_exact(..., alternative='greater') is at or below alpha.
const POWER: Array<[number, number, number, number, number]> = [
  [3, 1, 0, 0.05, 1],
  [3, 1, 0, 0.0025, 0],
  [30, 0.9, 0.6, 0.05, 0.8008504643],
  [30, 1.0, 0.7, 0.0025, 0.7186232918],
  [10, 0.67, 0.09, 0.05, 0.8000203112],
  [10, 0.67, 0.08, 0.05, 0.8212201936],
  [20, 0.5, 0.1, 0.01, 0.6090603462],
  [66, 1.0, 0.9, 0.05, 0.8018986987],
  [65, 1.0, 0.9, 0.05, 0.790948868],
];

describe('dropPower', () => {
  it.each(POWER)('n = %i, %f -> %f at alpha %f matches scipy', (n, before, after, alpha, power) => {
    expect(dropPower(n, before, after, alpha)).toBeCloseTo(power, 9);
  });
});

// The break (issue 28): power was below 9% for any drop short of a collapse at n <= 5, and
// nothing told the user. The report now prints what each row's n can find.
describe('detectableDrop', () => {
  it('finds the smallest drop, in hundredths, that n trials per side detect 80% of the time', () => {
    const drop = detectableDrop(10, 0.67, 0.05)!;
    expect(drop).toBe(0.58);
    expect(dropPower(10, 0.67, 0.67 - drop, 0.05)).toBeGreaterThanOrEqual(DETECTION_POWER);
    expect(dropPower(10, 0.67, 0.67 - drop + 0.01, 0.05)).toBeLessThan(DETECTION_POWER);
    // 3/3 -> 0/3 is the only significant outcome at n = 3: the rate must fall to 0.07.
    expect(detectableDrop(3, 1, 0.05)).toBe(0.93);
    expect(detectableDrop(30, 1, 0.05)).toBe(0.22);
  });

  it('says none when not even a fall to 0 would be found: n = 3 against 20 rows (alpha / 20)', () => {
    expect(detectableDrop(3, 1, 0.05 / 20)).toBeUndefined();
    expect(detectableDrop(5, 0.67, 0.05)).toBeUndefined();
    expect(detectableDrop(30, 0, 0.05)).toBeUndefined();
  });
});

describe('trialsNeeded', () => {
  it('is the smallest n per side with 80% power, exact up to 400', () => {
    expect(trialsNeeded(1, 0.9, 0.05)).toBe(66);
    // T8 upgraded's detection row: 69/72 less 0.10 at 0.05 / 24 rows. Exact power (scipy's
    // hypergeom.cdf critical values summed over binom.pmf outcomes) first reaches 0.80 at 235;
    // Fleiss' formula says 247.
    expect(trialsNeeded(69 / 72, 69 / 72 - 0.1, 0.05 / 24)).toBe(235);
    const n = trialsNeeded(0.9, 0.6, 0.05)!;
    expect(dropPower(n, 0.9, 0.6, 0.05)).toBeGreaterThanOrEqual(DETECTION_POWER);
    expect(dropPower(n - 1, 0.9, 0.6, 0.05)).toBeLessThan(DETECTION_POWER);
  });

  it("uses Fleiss' formula past 400 and gives up past 10,000; nothing for a rise", () => {
    expect(trialsNeeded(0.5, 0.4, 0.0025)).toBe(678);
    expect(trialsNeeded(0.9, 0.89, 0.05)).toBeUndefined();
    expect(trialsNeeded(0.5, 0.6, 0.05)).toBeUndefined();
  });

  it('takes an alpha too small for 1 - alpha to differ from 1 (--alpha 1e-300)', () => {
    expect(trialsNeeded(1, 0.5, 1e-300)).toBeGreaterThan(trialsNeeded(1, 0.5, 0.05)!);
    expect(detectableDrop(30, 1, 1e-300)).toBeDefined();
  });
});
