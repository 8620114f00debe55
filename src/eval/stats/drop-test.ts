import { z } from 'zod';

/**
 * One-sided Fisher exact test that the current pass rate is lower than the reference's:
 * the chance of seeing cCurrent or fewer passes among the current trials if both runs had
 * the same rate (hypergeometric, conditioned on the total number of passes). Exact at any n.
 */
export function dropPValue(
  nBefore: number,
  cBefore: number,
  nAfter: number,
  cAfter: number,
): number {
  const total = nBefore + nAfter;
  const passes = cBefore + cAfter;
  const logChoose = (n: number, k: number) =>
    logFactorial(n) - logFactorial(k) - logFactorial(n - k);
  const denominator = logChoose(total, nAfter);
  let p = 0;
  const lowest = Math.max(0, nAfter - (total - passes));
  for (let x = lowest; x <= cAfter; x++) {
    p += Math.exp(logChoose(passes, x) + logChoose(total - passes, nAfter - x) - denominator);
  }
  return Math.min(1, p);
}

const logFactorials: number[] = [0];
/** ln(n!), memoised: the hypergeometric here and the binomial of the two-level bootstrap. */
export function logFactorial(n: number): number {
  for (let i = logFactorials.length; i <= n; i++)
    logFactorials[i] = logFactorials[i - 1]! + Math.log(i);
  return logFactorials[n]!;
}

export const DropTestSchema = z
  .object({
    pValue: z.number().min(0).max(1),
    significant: z.boolean(),
    /**
     * Trials per side that would make a drop of this size significant at alpha, if the observed
     * rates held; absent when even MAX_TRIALS_TO_SETTLE would not.
     */
    trialsToSettle: z.number().int().min(1).optional(),
  })
  .strict();
export type DropTest = z.infer<typeof DropTestSchema>;

/** The largest n the search for trialsToSettle tries. */
export const MAX_TRIALS_TO_SETTLE = 1000;

/**
 * Is the drop from cBefore/nBefore to cAfter/nAfter significant at `alpha` (one-sided)?
 *
 * @example testDrop(3, 3, 3, 2, 0.05) // p = 0.5, not significant; about 16 trials each would settle it
 */
export function testDrop(
  nBefore: number,
  cBefore: number,
  nAfter: number,
  cAfter: number,
  alpha: number,
): DropTest {
  const pValue = dropPValue(nBefore, cBefore, nAfter, cAfter);
  if (atMost(pValue, alpha)) return { pValue, significant: true };
  const [before, after] = [cBefore / nBefore, cAfter / nAfter];
  if (!(after < before)) return { pValue, significant: false };
  for (let n = Math.max(nBefore, nAfter) + 1; n <= MAX_TRIALS_TO_SETTLE; n++) {
    if (atMost(dropPValue(n, Math.round(before * n), n, Math.round(after * n)), alpha)) {
      return { pValue, significant: false, trialsToSettle: n };
    }
  }
  return { pValue, significant: false };
}

// Exact p-values land on round numbers (3/3 -> 0/3 gives 0.05): do not lose them to round-off.
function atMost(pValue: number, alpha: number): boolean {
  return pValue <= alpha + 1e-12;
}
