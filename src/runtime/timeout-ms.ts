/** Node's timers hold at most 2^31 - 1 ms; a longer one fires after 1 ms. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Why `timeoutMs` is not a deadline both clocks keep alike, or undefined when it is. A live
 * run's setTimeout fires Infinity, NaN or 2^31 after about 1 ms, while the eval's virtual clock
 * treats them as "never": the eval would be green, production not.
 */
export function timeoutMsProblem(timeoutMs: unknown): string | undefined {
  if (
    Number.isInteger(timeoutMs) &&
    (timeoutMs as number) > 0 &&
    (timeoutMs as number) <= MAX_TIMEOUT_MS
  ) {
    return undefined;
  }
  const shown = typeof timeoutMs === 'string' ? `'${timeoutMs}'` : String(timeoutMs);
  return `timeoutMs ${shown} is not a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`;
}
