import { atMost, logFactorial } from './drop-test.js';
import { normalQuantile } from './interval.js';

/** The power a detection limit asks for: a drop is found 80 times in 100. */
export const DETECTION_POWER = 0.8;

/** Past this many trials per side the count is not searched for (the report says "more than"). */
export const MAX_TRIALS_NEEDED = 10_000;

/** Exact power is computed up to this n per side; past it, Fleiss' continuity-corrected formula. */
const EXACT_UP_TO = 400;

const logChoose = (n: number, k: number) => logFactorial(n) - logFactorial(k) - logFactorial(n - k);

/** Binomial probabilities of 0..n passes at rate p. */
function binomial(n: number, p: number): number[] {
  if (p <= 0) return Array.from({ length: n + 1 }, (_, x) => (x === 0 ? 1 : 0));
  if (p >= 1) return Array.from({ length: n + 1 }, (_, x) => (x === n ? 1 : 0));
  const [lp, lq] = [Math.log(p), Math.log1p(-p)];
  return Array.from({ length: n + 1 }, (_, x) => Math.exp(logChoose(n, x) + x * lp + (n - x) * lq));
}

/**
 * For n trials per side: per total number of passes t (0..2n), the most passes the current side
 * may have for the one-sided Fisher test (dropPValue) to reach `alpha`; -1 when none may.
 */
function criticalPasses(n: number, alpha: number): Int32Array {
  const key = `${n}/${alpha}`;
  const known = criticals.get(key);
  if (known) return known;
  if (criticals.size > 1000) criticals.clear();
  const critical = new Int32Array(2 * n + 1).fill(-1);
  const all = logChoose(2 * n, n);
  for (let total = 0; total <= 2 * n; total++) {
    let p = 0;
    for (let y = Math.max(0, total - n); y <= Math.min(n, total); y++) {
      p += Math.exp(logChoose(total, y) + logChoose(2 * n - total, n - y) - all);
      if (!atMost(p, alpha)) break;
      critical[total] = y;
    }
  }
  criticals.set(key, critical);
  return critical;
}

const criticals = new Map<string, Int32Array>();

/**
 * The exact power of the one-sided Fisher test at `alpha` (the gate's drop test) with n trials on
 * each side, when the rate really fell from `before` to `after`: the chance that the counts come
 * out significant, summed over every pair of pass counts.
 *
 * @example dropPower(3, 1, 0, 0.05) // 1: 3/3 -> 0/3 is the only outcome, p = 0.05
 */
export function dropPower(n: number, before: number, after: number, alpha: number): number {
  const critical = criticalPasses(n, alpha);
  const [x, y] = [binomial(n, before), binomial(n, after)];
  let power = 0;
  for (let b = 0; b <= n; b++) {
    for (let a = 0; a <= n; a++) if (a <= critical[a + b]!) power += x[b]! * y[a]!;
  }
  return Math.min(1, power);
}

/**
 * The smallest drop from `before` that n trials per side detect with DETECTION_POWER at `alpha`
 * (to two decimals, rounded up); undefined when not even a fall to 0 would be.
 */
export function detectableDrop(n: number, before: number, alpha: number): number | undefined {
  if (n < 1 || before <= 0 || dropPower(n, before, 0, alpha) < DETECTION_POWER) return undefined;
  // Power grows as the drop does: the smallest hundredth that reaches it.
  let [low, high] = [0, Math.round(before * 100)];
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (dropPower(n, before, before - middle / 100, alpha) >= DETECTION_POWER) high = middle;
    else low = middle;
  }
  return high / 100;
}

/**
 * Trials per side that detect a fall from `before` to `after` with DETECTION_POWER at `alpha`:
 * exact up to 400 (the smallest n that reaches it; a discrete test is saw-toothed in n, so a
 * few larger n may fall just short), Fleiss' continuity-corrected normal formula past it;
 * undefined past MAX_TRIALS_NEEDED.
 */
export function trialsNeeded(before: number, after: number, alpha: number): number | undefined {
  if (!(after < before)) return undefined;
  const approximate = fleiss(before, after, alpha);
  if (approximate > EXACT_UP_TO) return approximate > MAX_TRIALS_NEEDED ? undefined : approximate;
  // Discrete tests are saw-toothed in n: start a little below the formula and walk up.
  for (let n = Math.max(1, Math.floor(approximate * 0.6)); n <= EXACT_UP_TO; n++) {
    if (dropPower(n, before, after, alpha) >= DETECTION_POWER) return n;
  }
  return approximate;
}

/** Fleiss, Tytun and Ury (1980): n per side for two proportions, continuity-corrected, one-sided. */
function fleiss(p1: number, p2: number, alpha: number): number {
  // -q(alpha), not q(1 - alpha): 1 - 1e-300 is 1, outside the quantile's domain.
  const za = -normalQuantile(alpha);
  const zb = normalQuantile(DETECTION_POWER);
  const d = p1 - p2;
  const mean = (p1 + p2) / 2;
  const root =
    za * Math.sqrt(2 * mean * (1 - mean)) + zb * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2));
  const n = (root * root) / (d * d);
  return Math.ceil((n / 4) * (1 + Math.sqrt(1 + 4 / (n * d))) ** 2);
}
