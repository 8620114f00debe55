import type { Clock } from '../core/clock.js';
import { ConfigError } from '../core/errors.js';

/** The default deadline of one model call, headers and body: the SDK's default request timeout. */
export const DEFAULT_MODEL_TIMEOUT_MS = 600_000;

/** A deadline a timer can hold: milliseconds above 0 and below 2^31; a ConfigError otherwise. */
export function checkCallTimeout(timeoutMs: number): number {
  if (Number.isFinite(timeoutMs) && timeoutMs > 0 && timeoutMs < 2 ** 31) return timeoutMs;
  throw new ConfigError(
    `timeoutMs ${timeoutMs} is not a deadline a timer can hold: give milliseconds above 0 and below 2^31 (default ${DEFAULT_MODEL_TIMEOUT_MS})`,
  );
}

/** Where the agent and record CLIs and the eval trials read the deadline from (seconds), when no flag gives it. */
export const MODEL_TIMEOUT_ENV = 'HARNESS_MODEL_TIMEOUT';

/** A deadline given in seconds (fractions allowed), in ms; a ConfigError naming `name` otherwise. */
export function parseModelTimeout(name: string, value: string): number {
  const seconds = Number(value);
  // 2^31 ms is the longest a timer holds: about 24 days. Decimal only: Number reads 0x10 as 16.
  if (
    !/^\s*(\d+\.?\d*|\.\d+)\s*$/.test(value) ||
    !Number.isFinite(seconds) ||
    seconds <= 0 ||
    seconds * 1000 >= 2 ** 31
  ) {
    throw new ConfigError(
      `${name} takes seconds above 0 and below 2147483 (e.g. 600, the default, or 0.5), got '${value}'`,
    );
  }
  return seconds * 1000;
}

/** The `--model-timeout` flag when given, else HARNESS_MODEL_TIMEOUT; undefined for the default. */
export function modelTimeoutFrom(env: NodeJS.ProcessEnv, flag?: string): number | undefined {
  if (flag !== undefined) return parseModelTimeout('--model-timeout', flag);
  const value = env[MODEL_TIMEOUT_ENV];
  return value === undefined ? undefined : parseModelTimeout(MODEL_TIMEOUT_ENV, value);
}

/**
 * Run one model call (`call` gets the signal to pass to its fetch) with a deadline on the
 * whole of it, headers and body, and the caller's `signal` forwarded. A call still running at
 * the deadline is aborted, and rejects with `expired()`; any other failure goes through
 * `failed`. Both model clients (the Messages API's and the Chat Completions adapter's) use it.
 */
export async function withCallDeadline<T>(
  deadline: { timeoutMs: number; clock?: Clock | undefined; signal?: AbortSignal | undefined },
  call: (signal: AbortSignal) => Promise<T>,
  expired: () => Error,
  failed: (error: unknown) => unknown,
): Promise<T> {
  const controller = new AbortController();
  const outer = deadline.signal;
  const forward = () => controller.abort(outer?.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener('abort', forward, { once: true });
  let past = false;
  const disarm = arm(deadline.timeoutMs, deadline.clock, () => {
    past = true;
    controller.abort(new Error(`the model call outlived its ${deadline.timeoutMs} ms deadline`));
  });
  try {
    return await call(controller.signal);
  } catch (error) {
    throw past ? expired() : failed(error);
  } finally {
    disarm();
    outer?.removeEventListener('abort', forward);
  }
}

/** Call `expire` after `ms` unless the returned disarm runs first. */
function arm(ms: number, clock: Clock | undefined, expire: () => void): () => void {
  if (!clock) {
    const timer = setTimeout(expire, ms);
    // A pending call keeps the process alive through its socket; the timer need not.
    timer.unref?.();
    return () => clearTimeout(timer);
  }
  const cancel = new AbortController();
  clock.sleep(ms, cancel.signal).then(expire, () => {});
  return () => cancel.abort();
}
