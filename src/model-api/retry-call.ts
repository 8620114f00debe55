import type { Clock } from '../core/clock.js';
import type { ConcurrencyLimit } from './concurrency-limit.js';
import type { ModelEvent } from './model-client.js';
import { backoffMs, classifyFailure, type FailureInfo } from './retry-policy.js';

/** How often and how long to retry; every field has a default. */
export interface RetrySettings {
  /** Retries before giving up. Default 4. */
  maxRetries?: number;
  /** Backoff when the server names no wait: 500 ms doubling to at most 8000 ms, with jitter. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** A longer `retry-after` than this is not waited out as such; backoff applies. Default 60 s. */
  maxRetryAfterMs?: number;
  /** Jitter source, 0..1. Default Math.random. */
  random?: () => number;
}

export interface RetryCallOptions extends RetrySettings {
  /** Every wait goes through it (tests and evals: a virtual clock, no real sleeping). */
  clock: Clock;
  /** Named in each `model_retry` event. */
  model: string;
  /** A 429's wait pauses every call that shares it. */
  limit?: ConcurrencyLimit | undefined;
  signal?: AbortSignal | undefined;
  /** Give up on a retryable failure at once (an overload, when a fallback model is left). */
  giveUp?: (failure: FailureInfo) => boolean;
  onEvent?: (event: ModelEvent) => void;
  /** After each event: an error ends the call with it, before its wait (see ModelCallOptions). */
  stopAfterEvent?: () => Promise<Error | undefined>;
}

/**
 * Call, and call again on a failure the retry policy calls retryable (retry-policy.ts: the
 * rule the recording tape follows too), waiting the server's `retry-after-ms` / `retry-after`
 * or backoff; the last failure is thrown as it came. Each retry is reported as a
 * `model_retry` event, after which `stopAfterEvent` may end the call before its wait (a trace
 * that failed). The model layer of this runtime and the Chat Completions adapter both retry
 * through it, so a malformed answer is retried the same way on either path.
 */
export async function callWithRetries<T>(
  call: () => Promise<T>,
  options: RetryCallOptions,
): Promise<T> {
  const { clock, signal } = options;
  const maxRetries = options.maxRetries ?? 4;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const backoff = {
    initialDelayMs: options.initialDelayMs ?? 500,
    maxDelayMs: options.maxDelayMs ?? 8000,
    random: options.random ?? Math.random,
  };
  for (let attempt = 1; ; attempt += 1) {
    let failure: FailureInfo;
    try {
      return await call();
    } catch (error) {
      failure = classifyFailure(error, clock.now());
      if (!failure.retryable || signal?.aborted || options.giveUp?.(failure)) throw error;
      if (attempt > maxRetries) throw error;
    }
    const named = failure.retryAfterMs;
    const wait =
      named !== undefined && named <= maxRetryAfterMs ? named : backoffMs(attempt, backoff);
    // A rate limit is everyone's: hold the shared limit, not just this call.
    if (failure.status === 429) options.limit?.pause(wait);
    options.onEvent?.({
      type: 'model_retry',
      model: options.model,
      attempt,
      ...(failure.status !== undefined && { status: failure.status }),
      error: failure.message,
      wait_ms: wait,
    });
    const stop = await options.stopAfterEvent?.();
    if (stop !== undefined) throw stop;
    await clock.sleep(wait, signal);
  }
}
