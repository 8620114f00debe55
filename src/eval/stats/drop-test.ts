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
    /** One-sided Fisher exact p-value of this row's pass@1 counts. */
    pValue: z.number().min(0).max(1),
    /** Holm-adjusted over `family`: compared with alpha, so a whole run keeps alpha. */
    adjustedPValue: z.number().min(0).max(1),
    /** The rows the gate tested statistically in this run (compared on other cassettes). */
    family: z.number().int().min(1),
    significant: z.boolean(),
    /**
     * Trials per side that would detect a drop of this size with 80% power at this row's level
     * (alpha / family), at the observed rates; absent when significant, or past 10,000.
     */
    trialsNeeded: z.number().int().min(1).optional(),
  })
  .strict();
export type DropTest = z.infer<typeof DropTestSchema>;

/** An exact p-value at or below alpha: they land on round numbers (3/3 -> 0/3 gives 0.05). */
export function atMost(pValue: number, alpha: number): boolean {
  return pValue <= alpha + 1e-12;
}
