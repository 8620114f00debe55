/** Rates keyed by k ("1", "2", ...), null where fewer than k trials counted. */
export type RatesByK = Readonly<Record<string, number | null>>;

/** The largest k that has a value, or undefined when none does. */
export function largestK(rates: RatesByK): number | undefined {
  let largest: number | undefined;
  for (const [key, value] of Object.entries(rates)) {
    const k = Number(key);
    if (value !== null && (largest === undefined || k > largest)) largest = k;
  }
  return largest;
}

/** The largest k both sides have a value for. */
export function largestCommonK(left: RatesByK, right: RatesByK): number | undefined {
  let largest: number | undefined;
  for (const [key, value] of Object.entries(left)) {
    const k = Number(key);
    if (value === null || (right[key] ?? null) === null) continue;
    if (largest === undefined || k > largest) largest = k;
  }
  return largest;
}

export function rateAt(rates: RatesByK, k: number | undefined): number | null {
  return k === undefined ? null : (rates[String(k)] ?? null);
}

/** Rates for k = 1..maxK from a function that is undefined where it does not apply. */
export function ratesByK(maxK: number, rate: (k: number) => number | undefined): RatesByK {
  const rates: Record<string, number | null> = {};
  for (let k = 1; k <= maxK; k++) rates[String(k)] = rate(k) ?? null;
  return rates;
}

/**
 * Rates come from the same product forms on both sides; only round-off can differ, and round-off
 * is relative (a few units in the last place per factor). So the tolerance is relative too: a
 * pass^k of 1e-12 that falls to 0 is a drop, which an absolute tolerance would call "same".
 */
export const RELATIVE_TOLERANCE = 1e-9;

/** -1 lower, 1 higher, 0 the same or not comparable (a side without a value). */
export function direction(before: number | null, after: number | null): -1 | 0 | 1 {
  if (before === null || after === null) return 0;
  const tolerance = RELATIVE_TOLERANCE * Math.max(Math.abs(before), Math.abs(after));
  if (after < before - tolerance) return -1;
  if (after > before + tolerance) return 1;
  return 0;
}

/** Two rows' pass@1 and pass^k (at the largest k both have), and which way each moved. */
export function rateMoves(
  before: { passAt1: number | null; passHatK: RatesByK },
  after: { passAt1: number | null; passHatK: RatesByK },
) {
  const k = largestCommonK(before.passHatK, after.passHatK);
  const passAt1 = { before: before.passAt1, after: after.passAt1 };
  const passHatK = {
    k: k ?? null,
    before: rateAt(before.passHatK, k),
    after: rateAt(after.passHatK, k),
  };
  const moves = [
    direction(passAt1.before, passAt1.after),
    direction(passHatK.before, passHatK.after),
  ];
  return { passAt1, passHatK, moves };
}
