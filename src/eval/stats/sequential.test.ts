import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../core/mulberry32.js';
import { decidePaired } from './sequential.js';
import {
  DEFAULT_BETS,
  DROP_BETS,
  NO_DROP_BETS,
  pairedLogCapital,
  ternaryLogCapital,
} from './sequential-capital.js';
import { decideRun } from './sequential-run.js';
import { SequentialDecisionSchema } from './sequential-schema.js';

const options = { alpha: 0.05, beta: 0.2, delta: 0.1 };

/** The capitals written out as plain products, in plain numbers: the independent computation. */
function bruteCapital(rounds: readonly number[], delta: number) {
  let drop = 0;
  DROP_BETS.bets.forEach((l, j) => {
    let product = DROP_BETS.weights[j]!;
    for (const x of rounds) product *= 1 + l * x;
    drop += product;
  });
  let noDrop = 0;
  NO_DROP_BETS.bets.forEach((fraction, j) => {
    let product = NO_DROP_BETS.weights[j]!;
    for (const x of rounds) product *= 1 + (fraction / (1 - delta)) * (delta - x);
    noDrop += product;
  });
  return { drop, noDrop };
}

describe('pairedLogCapital', () => {
  it('equals the plain products of every bet, averaged with the weights, after each round', () => {
    const random = mulberry32(32);
    for (let path = 0; path < 50; path++) {
      const rounds = Array.from({ length: 12 }, () => Math.round((random() * 2 - 1) * 8) / 8);
      const { drop, noDrop } = pairedLogCapital(rounds, 0.1);
      rounds.forEach((_, t) => {
        const brute = bruteCapital(rounds.slice(0, t + 1), 0.1);
        expect(Math.exp(drop[t]!)).toBeCloseTo(brute.drop, 10);
        expect(Math.exp(noDrop[t]!)).toBeCloseTo(brute.noDrop, 10);
      });
    }
  });

  it('gives the counts formula the tables use, in any order of the rounds', () => {
    const rounds = [1, 0, -1, 1, 0, 0, 1, -1, 1, 1, 0];
    const last = (values: number[]) => values[values.length - 1]!;
    const path = pairedLogCapital(rounds, 0.1);
    const counts = ternaryLogCapital(11, 5, 2, 0.1, DEFAULT_BETS);
    expect(last(path.drop)).toBeCloseTo(counts.drop, 12);
    expect(last(path.noDrop)).toBeCloseTo(counts.noDrop, 12);
    const reversed = pairedLogCapital([...rounds].reverse(), 0.1);
    expect(last(reversed.drop)).toBeCloseTo(counts.drop, 12);
  });
});

describe('decidePaired', () => {
  it('decides a fall from 1.00 to 0 at round 7, where the capital first reaches 20 (hand-checked)', () => {
    // Round 7: 0.15 x 1.1^7 + 0.2 x 1.2^7 + 0.2 x 1.35^7 + 0.15 x (1.55^7 + 1.8^7 + 2^7) = 34.25;
    // round 6 gives 18.86 < 20.
    const at7 =
      0.15 * 1.1 ** 7 + 0.2 * 1.2 ** 7 + 0.2 * 1.35 ** 7 + 0.15 * (1.55 ** 7 + 1.8 ** 7 + 2 ** 7);
    const at6 =
      0.15 * 1.1 ** 6 + 0.2 * 1.2 ** 6 + 0.2 * 1.35 ** 6 + 0.15 * (1.55 ** 6 + 1.8 ** 6 + 2 ** 6);
    expect([at6 < 20, at7 >= 20]).toEqual([true, true]);
    const decision = decidePaired({ ...options, rounds: Array(12).fill(1) });
    expect(decision).toMatchObject({ state: 'drop', decidedAt: 7, rounds: 7 });
    expect(decision.pValue).toBeCloseTo(1 / at7, 10);
    expect(decision.interval.lower).toBeGreaterThan(0);
  });

  it('says no drop > 0.10 for a row at 1.00 on both sides after 23 rounds (fixed n needs 66)', () => {
    // X = 0 every round: mean over c of (1 + c x 0.1 / 0.9)^t, c = 0.2 ... 1, reaches 5 at t = 23.
    const capital = (t: number) =>
      [0.2, 0.35, 0.55, 0.8, 1].reduce((sum, c) => sum + 0.2 * (1 + (c * 0.1) / 0.9) ** t, 0);
    expect([capital(22) < 5, capital(23) >= 5]).toEqual([true, true]);
    const decision = decidePaired({ ...options, rounds: Array(40).fill(0) });
    expect(decision).toMatchObject({ state: 'no-drop', decidedAt: 23 });
    expect(decision.interval.upper).toBeLessThan(0.1);
  });

  it('keeps the state of the first crossing, whatever rounds follow it', () => {
    const drop = decidePaired({ ...options, rounds: [...Array(7).fill(1), ...Array(60).fill(-1)] });
    expect(drop).toMatchObject({ state: 'drop', decidedAt: 7 });
    const noDrop = decidePaired({
      ...options,
      rounds: [...Array(23).fill(0), ...Array(60).fill(1)],
    });
    expect(noDrop).toMatchObject({ state: 'no-drop', decidedAt: 23 });
    // The same rounds cut at 22 are undecided: it is the crossing, not the count, that decides.
    const cut = decidePaired({ ...options, rounds: Array(22).fill(0) });
    expect(cut).toMatchObject({ state: 'undecided', rounds: 22, moreRounds: 1 });
    expect(cut.decidedAt).toBeUndefined();
  });

  it('ignores rounds past maxRounds and says how many more would likely decide the row', () => {
    const decision = decidePaired({ ...options, rounds: Array(40).fill(0), maxRounds: 10 });
    expect(decision).toMatchObject({ state: 'undecided', rounds: 10, moreRounds: 13 });
    expect(decision.interval.lower).toBeLessThan(0);
    expect(decision.interval.upper).toBeGreaterThan(0.1);
  });

  it('gives as p-value 1 / the highest drop capital so far, not the last one', () => {
    const rounds = [1, 1, 1, 1, 1, -1, -1];
    const decision = decidePaired({ ...options, rounds });
    const highest = bruteCapital(rounds.slice(0, 5), 0.1).drop;
    expect(decision.state).toBe('undecided');
    expect(decision.pValue).toBeCloseTo(1 / highest, 12);
    expect(bruteCapital(rounds, 0.1).drop).toBeLessThan(highest / 2);
  });

  it('takes a dataset round as the mean over its cases', () => {
    // 4 cases per round, one more failing on the new side each round: X = 0.25.
    const decision = decidePaired({ ...options, rounds: Array(200).fill(0.25) });
    expect(decision.state).toBe('drop');
    expect(decision.interval.lower).toBeGreaterThan(0);
  });

  it('names a bad input and the range it needs', () => {
    expect(() => decidePaired({ ...options, rounds: [2] })).toThrow(/round 1 .* \[-1, 1\]/);
    expect(() => decidePaired({ ...options, alpha: 0, rounds: [] })).toThrow(/alpha must be in/);
    expect(() => decidePaired({ ...options, rounds: [], maxRounds: 0 })).toThrow(/maxRounds/);
  });
});

describe('decideRun', () => {
  it('detects a fall from 1.00 to 0 among 20 rows at round 11 (alpha / 20 = 0.0025)', () => {
    const rows = [{ rounds: Array(20).fill(1) }, ...Array(19).fill({ rounds: Array(30).fill(0) })];
    const decisions = decideRun(rows, options);
    expect(decisions[0]).toMatchObject({ state: 'drop', decidedAt: 11 });
    expect(decisions.slice(1).every((row) => row.state === 'no-drop')).toBe(true);
    // Tested at alpha alone, the same row would have been a drop at round 7.
    expect(decidePaired({ ...options, rounds: Array(20).fill(1) }).decidedAt).toBe(7);
  });

  it("turns an undecided row into a drop when Holm's later steps allow it", () => {
    // Row 1 drops at round 8 (capital 63.3 >= 2 / alpha); row 2 stops at its cap, 8 rounds, with
    // p = 1 / 34.25 = 0.0292: above alpha / 2, at or below alpha once row 1 has dropped.
    const rows = [{ rounds: Array(20).fill(1) }, { rounds: [...Array(7).fill(1), 0] }];
    const decisions = decideRun(rows, { ...options, maxRounds: 8 });
    expect(decisions[0]).toMatchObject({ state: 'drop', decidedAt: 8 });
    expect(decisions[1]).toMatchObject({ state: 'drop', decidedAt: 8 });
    expect(decisions[1]!.pValue).toBeGreaterThan(0.025);
    expect(decisions[1]!.adjustedPValue).toBeCloseTo(2 * decisions[0]!.pValue, 12);
    expect(decisions[1]!.moreRounds).toBeUndefined();
    // Beside a row that did not drop, it stays undecided (adjusted p = 2 x 0.0292).
    for (const decision of decisions)
      expect(SequentialDecisionSchema.parse(decision)).toEqual(decision);
    expect(() => SequentialDecisionSchema.parse({ ...decisions[0], state: 'maybe' })).toThrow();
    const alone = decideRun([{ rounds: Array(8).fill(0) }, rows[1]!], { ...options, maxRounds: 8 });
    expect(alone[1]!.state).toBe('undecided');
  });
});
