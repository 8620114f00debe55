/**
 * A token count as a model's `usage` reports it, or 0 when it is not a whole number from 0 up:
 * a gateway's `"30000"` would otherwise be concatenated into budgets and reports as text, and
 * a negative or fractional count would skew them.
 */
export function tokenCount(value: unknown): number {
  return isTokenCount(value) ? value : 0;
}

/** A whole number from 0 up: what a `usage` count must be. */
export function isTokenCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
