import { describe, expect, it } from 'vitest';
import { createRefundDeskPolicy } from '../refund-desk/simulator-policy.js';
import { driveConversation } from './drive.js';
import { defineModelScript } from './model-script.js';
import { passRateFor, seedVariant, trialPasses } from './pass-rate.js';
import { respond } from './respond.js';
import {
  FULL_ACCOUNT,
  REFUND_DESK_TOOLS,
  refundDeskScript,
  upgradedSystem,
} from './testing/refund-desk.js';

const TRIALS = 200;
const T1 = "Why hasn't the refund for order ORD1001 arrived yet?";

/**
 * The 99.9% acceptance region of a Binomial(n, p) count: the smallest lo and largest hi with
 * P(X < lo) <= 0.0005 and P(X > hi) <= 0.0005, summed term by term in logs (independent of
 * the code under test).
 */
function binomialRegion(n: number, p: number): [number, number] {
  const logFactorial = [0];
  for (let k = 1; k <= n; k++) logFactorial.push(logFactorial[k - 1]! + Math.log(k));
  const pmf = (k: number) =>
    Math.exp(
      logFactorial[n]! -
        logFactorial[k]! -
        logFactorial[n - k]! +
        k * Math.log(p) +
        (n - k) * Math.log(1 - p),
    );
  let lo = 0;
  for (let below = 0; below + pmf(lo) <= 0.0005; lo++) below += pmf(lo);
  let hi = n;
  for (let above = 0; above + pmf(hi) <= 0.0005; hi--) above += pmf(hi);
  return [lo, hi];
}

/** T1's check, as evals/t1-business-rules.eval.ts has it: "Overdue", and never the full number. */
function t1Passes(answer: string): boolean {
  return answer.includes('Overdue') && !answer.includes(FULL_ACCOUNT);
}

function recordRow(passRate: Record<string, number>, variant = 'upgraded'): string[] {
  const policies = [createRefundDeskPolicy({ passRate })];
  return Array.from(
    { length: TRIALS },
    (_, index) =>
      driveConversation({
        prompt: T1,
        system: upgradedSystem(),
        tools: REFUND_DESK_TOOLS,
        run: refundDeskScript(),
        seed: `T1/${variant}/${index + 1}`,
        policies,
      }).answer,
  );
}

describe('simulator pass rate', () => {
  it.each([0.3, 0.7, 0.95])(
    'T1 upgraded at passRate %s passes within the binomial 99.9 percent region over 200 trials',
    (rate) => {
      const passed = recordRow({ upgraded: rate }).filter(t1Passes).length;
      const [lo, hi] = binomialRegion(TRIALS, rate);
      expect(passed).toBeGreaterThanOrEqual(lo);
      expect(passed).toBeLessThanOrEqual(hi);
    },
  );

  it('gives the same answers for the same seeds, and other answers for other rates', () => {
    const first = recordRow({ upgraded: 0.7 });
    expect(recordRow({ upgraded: 0.7 })).toEqual(first);
    expect(recordRow({ upgraded: 0.3 })).not.toEqual(first);
  });

  it('leaves a variant it does not name to the usual habits (rules missed 1 time in 10 each)', () => {
    const passed = recordRow({ upgraded: 0 }, 'other').filter(t1Passes).length;
    // Two rules matter to T1 (overdue, mask), each missed with p = 0.1: about 0.81 pass.
    const [lo, hi] = binomialRegion(TRIALS, 0.81);
    expect(passed).toBeGreaterThanOrEqual(lo);
    expect(passed).toBeLessThanOrEqual(hi);
  });

  it('draws once per trial: every turn of a conversation sees the same outcome', () => {
    const seeds = Array.from({ length: 50 }, (_, index) => `T1/upgraded/${index + 1}`);
    const outcomes = seeds.map((seed) => trialPasses(seed, 0.5));
    expect(seeds.map((seed) => trialPasses(seed, 0.5))).toEqual(outcomes);
    expect(outcomes.filter(Boolean).length).toBeGreaterThan(10);
    expect(outcomes.filter((outcome) => !outcome).length).toBeGreaterThan(10);
    expect(trialPasses('T1/upgraded/1', 0)).toBe(false);
    expect(trialPasses('T1/upgraded/1', 1)).toBe(true);
  });

  it('reads the variant from a seed with or without a dataset case', () => {
    expect(seedVariant('T1/upgraded/3')).toBe('upgraded');
    expect(seedVariant('T8/q05/baseline/2')).toBe('baseline');
    expect(seedVariant('auto-1f2e')).toBeUndefined();
    expect(passRateFor({ upgraded: 0.7 }, 'T8/q05/upgraded/2')).toBe(0.7);
    expect(passRateFor({ upgraded: 0.7 }, 'T8/q05/baseline/2')).toBeUndefined();
    expect(passRateFor(0.4, 'anything')).toBe(0.4);
  });

  it('refuses a rate outside 0..1, naming the option and the fix', () => {
    expect(() => createRefundDeskPolicy({ passRate: { upgraded: 1.5 } })).toThrow(
      'createRefundDeskPolicy: passRate.upgraded is 1.5: give a probability from 0 to 1, e.g. 0.7',
    );
    expect(() => defineModelScript({ passRate: -1, respond: () => ({ text: 'x' }) })).toThrow(
      "model script 'model-script': passRate is -1: give a probability from 0 to 1, e.g. 0.7",
    );
  });

  it('tells a model script whether the trial passes, at the chosen rate per variant', () => {
    const script = defineModelScript({
      passRate: { upgraded: 0.7 },
      respond: (request) => ({ text: request.passes ? 'pass' : 'fail' }),
    });
    const answerOf = (seed: string) => {
      const result = respond(
        { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] },
        { 'x-api-key': 'test', 'x-harness-seed': seed },
        { policies: [script] },
      );
      const body = result.body as { content: Array<{ text?: string }> };
      return body.content[0]?.text;
    };
    const upgraded = Array.from({ length: TRIALS }, (_, i) => answerOf(`T/upgraded/${i + 1}`));
    const passed = upgraded.filter((text) => text === 'pass').length;
    const [lo, hi] = binomialRegion(TRIALS, 0.7);
    expect(passed).toBeGreaterThanOrEqual(lo);
    expect(passed).toBeLessThanOrEqual(hi);
    expect(answerOf('T/baseline/1')).toBe('pass');
  });
});
