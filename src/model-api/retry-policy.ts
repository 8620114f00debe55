// The SDK's error classes alone: the client (and its ~270 modules) loads only when a client is built.
import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk/core/error';
import { errorMessage, ModelApiError } from '../core/errors.js';
import { isRetryableErrorAnswer } from './retryable-answer.js';

/** What a failed model call means for the retry layer. */
export interface FailureInfo {
  retryable: boolean;
  /** 529 / overloaded_error: a fallback model is worth trying at once. */
  overloaded: boolean;
  status: number | undefined;
  /** The server's own wait (retry-after-ms, else retry-after), when it sent one. */
  retryAfterMs: number | undefined;
  message: string;
}

/**
 * Classify a model call failure as the recording tape does (retryable-answer.ts): `x-should-retry`
 * first, then 408, 409, 429, 5xx (529 overloaded included; an `error` event inside a 200 stream
 * counts as the status of its type), connection failures, and answers that were not a complete
 * message (malformed, cut off, past the deadline). Aborts are never retried.
 */
export function classifyFailure(error: unknown, now: number): FailureInfo {
  const api = apiErrorOf(error);
  const ours = error instanceof ModelApiError ? error : undefined;
  const status = api?.status ?? ours?.status;
  const headers = api?.headers ?? ours?.headers;
  const message = errorMessage(error);
  const aborted = hasCause(error, (cause) => cause instanceof APIUserAbortError);
  const connection =
    status === undefined &&
    (ours?.kind !== undefined || hasCause(error, (cause) => cause instanceof APIConnectionError));
  const should = headers?.get('x-should-retry');
  const retryable =
    !aborted &&
    (status !== undefined
      ? isRetryableErrorAnswer(status, should)
      : should === 'true' || (should !== 'false' && connection));
  const type = (api?.error as { error?: { type?: string } } | undefined)?.error?.type;
  return {
    retryable,
    overloaded: status === 529 || type === 'overloaded_error',
    status,
    retryAfterMs: headers ? retryAfterMs(headers, now) : undefined,
    message,
  };
}

/** `retry-after-ms` (milliseconds), else `retry-after` (seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterMs(headers: Pick<Headers, 'get'>, now: number): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0) {
    return Number(ms);
  }
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export interface BackoffOptions {
  initialDelayMs: number;
  maxDelayMs: number;
  /** 0..1; the wait is scaled by 1 - 0.25 * random() (the SDK's jitter). */
  random: () => number;
}

/** Exponential backoff for retry `attempt` (1 for the first retry), capped, with jitter. */
export function backoffMs(attempt: number, options: BackoffOptions): number {
  const base = Math.min(options.initialDelayMs * 2 ** (attempt - 1), options.maxDelayMs);
  return Math.round(base * (1 - 0.25 * options.random()));
}

function apiErrorOf(error: unknown): APIError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth += 1) {
    if (current instanceof APIError && current.status !== undefined) return current;
    current = current.cause;
  }
  return undefined;
}

function hasCause(error: unknown, test: (cause: Error) => boolean): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth += 1) {
    if (test(current)) return true;
    current = current.cause;
  }
  return false;
}
