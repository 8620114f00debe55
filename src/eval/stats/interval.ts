import { z } from 'zod';

/** A two-sided confidence interval for a rate or a difference of rates. */
export const IntervalSchema = z.object({ lower: z.number(), upper: z.number() }).strict();
export type Interval = z.infer<typeof IntervalSchema>;

/** The confidence level every interval in the reports uses. */
export const CONFIDENCE = 0.95;

/** The standard normal quantile z with P(Z <= z) = p (Acklam's rational approximation, |error| < 1.2e-9). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`p must be in (0, 1), got ${p}`);
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972,
    -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734,
    4.374664141464968, 2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  const poly = (coefficients: number[], x: number) =>
    coefficients.reduce((sum, k) => sum * x + k, 0);
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return poly(c, q) / (poly(d, q) * q + 1);
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (poly(a, r) * q) / (poly(b, r) * r + 1);
}

/** z for a two-sided interval at `confidence` (1.959964 for 0.95). */
export function twoSidedZ(confidence: number = CONFIDENCE): number {
  if (!(confidence > 0 && confidence < 1)) {
    throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
  }
  return normalQuantile(1 - (1 - confidence) / 2);
}

/** The smallest interval holding both: the wider reading wins at each end. */
export function hull(first: Interval, second: Interval): Interval {
  return { lower: Math.min(first.lower, second.lower), upper: Math.max(first.upper, second.upper) };
}
