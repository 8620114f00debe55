/**
 * Unbiased estimators over n trials with c passes, in product forms that never build a
 * large binomial. Both return `undefined` (not 0) when fewer than k trials were counted.
 */

function checkCounts(n: number, c: number, k: number): void {
  for (const [name, value] of [
    ['n', n],
    ['c', c],
    ['k', k],
  ] as const) {
    if (!Number.isInteger(value)) throw new RangeError(`${name} must be an integer, got ${value}`);
  }
  if (n < 0) throw new RangeError(`n must not be negative, got ${n}`);
  if (c < 0) throw new RangeError(`c must not be negative, got ${c}`);
  if (c > n) throw new RangeError(`c (${c}) must not exceed n (${n})`);
  if (k < 1) throw new RangeError(`k must be at least 1, got ${k}`);
}

/**
 * pass@k = 1 - C(n-c, k) / C(n, k): the chance that at least one of k trials passes.
 *
 * @example passAtK(5, 2, 2) // 0.7
 */
export function passAtK(n: number, c: number, k: number): number | undefined {
  checkCounts(n, c, k);
  if (n < k) return undefined;
  // Every k-subset holds a pass.
  if (n - c < k) return 1;
  let allFail = 1;
  for (let i = n - c + 1; i <= n; i++) allFail *= 1 - k / i;
  return 1 - allFail;
}

/**
 * pass^k = C(c, k) / C(n, k): the chance that all of k trials pass.
 *
 * @example passHatK(5, 2, 2) // 0.1
 */
export function passHatK(n: number, c: number, k: number): number | undefined {
  checkCounts(n, c, k);
  if (n < k) return undefined;
  // Also keeps the product from reaching -0 through negative factors.
  if (c < k) return 0;
  let allPass = 1;
  for (let i = 0; i < k; i++) allPass *= (c - i) / (n - i);
  return allPass;
}

/** Nearest-rank percentile (p in 0..100] of the values; undefined for none. */
export function nearestRank(values: readonly number[], percentile: number): number | undefined {
  if (!(percentile > 0 && percentile <= 100)) {
    throw new RangeError(`percentile must be in (0, 100], got ${percentile}`);
  }
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((percentile / 100) * sorted.length);
  return sorted[Math.max(rank, 1) - 1];
}

/** Arithmetic mean; undefined for no values. */
export function mean(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}
