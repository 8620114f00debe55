import { describe, expect, it } from 'vitest';
import { logFactorial } from './drop-test.js';
import { DEFAULT_BETS } from './sequential-capital.js';
import { referenceLimit } from './sequential-limit.js';
import {
  clopperPearson,
  decideAgainstReference,
  REFERENCE_SHARE,
  referenceTargets,
} from './sequential-reference.js';

const options = { alpha: 0.05, beta: 0.2, delta: 0.1 };

describe('clopperPearson', () => {
  it('matches the closed forms at 0 and all passes, and 1 - p^3 = level for 2 of 3', () => {
    expect(clopperPearson(3, 3, 0.05).lower).toBeCloseTo(0.05 ** (1 / 3), 12);
    expect(clopperPearson(0, 10, 0.1).upper).toBeCloseTo(1 - 0.1 ** (1 / 10), 12);
    expect(clopperPearson(2, 3, 0.1).upper).toBeCloseTo(0.9 ** (1 / 3), 12);
    expect(clopperPearson(1, 3, 0.05).lower).toBeCloseTo(1 - 0.95 ** (1 / 3), 12);
    expect(clopperPearson(3, 3, 0.05).upper).toBe(1);
  });

  it('names a bad reference', () => {
    expect(() => clopperPearson(4, 3, 0.05)).toThrow(/0 <= passed <= trials/);
  });
});

const binomial = (n: number, c: number, p: number) =>
  Math.exp(
    logFactorial(n) -
      logFactorial(c) -
      logFactorial(n - c) +
      (c === 0 ? 0 : c * Math.log(p)) +
      (n - c === 0 ? 0 : (n - c) * Math.log1p(-p)),
  );

/**
 * The exact chance that the drop test fires within `rounds` new trials when the new rate equals
 * the reference's p, summed over the reference's c0 and every count path of the new side
 * (constant bets: the capital depends only on the passes so far). `below(c0)` is the bound the
 * new rate is tested against.
 */
function exactFalseDrop(p: number, n0: number, rounds: number, below: (c0: number) => number) {
  const level = (1 - REFERENCE_SHARE) * options.alpha;
  let total = 0;
  for (let c0 = 0; c0 <= n0; c0++) {
    const bound = below(c0);
    if (bound <= 0) continue;
    let open = [1]; // mass by passes so far, among paths not yet decided
    let fired = 0;
    for (let t = 1; t <= rounds; t++) {
      const next = new Array<number>(t + 1).fill(0);
      open.forEach((mass, s) => {
        next[s + 1]! += mass * p;
        next[s]! += mass * (1 - p);
      });
      next.forEach((mass, s) => {
        // Per bet c: (1 + c L / (1 - L)) per failure, (1 - c) per pass, as plain products.
        const capital = DEFAULT_BETS.drop.bets.reduce(
          (sum, c, j) =>
            sum +
            DEFAULT_BETS.drop.weights[j]! *
              (1 + (c * bound) / (1 - bound)) ** (t - s) *
              (1 - c) ** s,
          0,
        );
        if (mass > 0 && capital >= 1 / level - 1e-9) {
          fired += mass;
          next[s] = 0;
        }
      });
      open = next;
    }
    total += binomial(n0, c0, p) * fired;
  }
  return total;
}

describe('decideAgainstReference', () => {
  it('keeps P(drop) <= alpha with no change, exactly, over the reference and 30 new trials', () => {
    const exact = (c0: number) =>
      referenceTargets({ passed: c0, trials: 10 }, { drop: 0.05, beta: 0.2 }, 0.1).dropBelow;
    for (const p of [0.3, 0.6, 0.9])
      expect(exactFalseDrop(p, 10, 30, exact)).toBeLessThanOrEqual(options.alpha);
  });

  it("would not with the reference's rate taken as known (the bound this test stands for)", () => {
    const worst = Math.max(
      ...[0.3, 0.6, 0.9].map((p) => exactFalseDrop(p, 10, 30, (c0) => c0 / 10)),
    );
    expect(worst).toBeGreaterThan(options.alpha);
  });

  it('decides a drop from 3/3 to all failures, and no drop > 0.10 when every new trial passes', () => {
    const reference = { passed: 3, trials: 3 };
    const drop = decideAgainstReference({ ...options, reference, rounds: Array(40).fill(0) });
    expect(drop).toMatchObject({ state: 'drop', decidedAt: 15 });
    expect(drop.interval.lower).toBeGreaterThan(0);
    expect(drop.pValue).toBeLessThanOrEqual(0.05);
    const same = decideAgainstReference({ ...options, reference, rounds: Array(60).fill(1) });
    expect(same).toMatchObject({ state: 'no-drop', decidedAt: 31 });
    expect(same.interval.upper).toBeLessThan(0.1);
  });
});

describe('referenceLimit', () => {
  it('says 2/3 leaves no room for a new side at 0.67, and how many reference trials would', () => {
    const limit = referenceLimit({ passed: 2, trials: 3, ...options });
    expect(limit.noDropNeedsRateAbove).toBeCloseTo(0.9 ** (1 / 3) - 0.1, 10);
    expect(limit.sameRate.possible).toBe(false);
    expect(limit.bestCase).toBe(23);
    expect(limit.summary).toMatch(/no number of new trials at the same rate 0\.67/);
    const needed = limit.referenceTrialsNeeded!;
    const room = (n: number) =>
      clopperPearson(Math.round((2 / 3) * n), n, REFERENCE_SHARE * 0.2).upper - 0.1 < 2 / 3;
    expect([room(needed - 1), room(needed)]).toEqual([false, true]);
  });

  it('says a reference at 3/3 allows it only to a new side at 1.00, after 31 trials', () => {
    const limit = referenceLimit({ passed: 3, trials: 3, ...options });
    expect(limit).toMatchObject({ possible: true, bestCase: 31, noDropNeedsRateAbove: 0.9 });
    expect(limit.sameRate).toMatchObject({ possible: true, trials: 31 });
  });
});
