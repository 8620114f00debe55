import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { ModelApiError } from '../core/errors.js';
import { backoffMs, classifyFailure, retryAfterMs } from './retry-policy.js';

const NOW = Date.parse('2026-10-01T09:00:00Z');

function apiFailure(status: number, headers: Record<string, string> = {}, type = 'api_error') {
  const cause = Anthropic.APIError.generate(
    status,
    { type: 'error', error: { type, message: 'planted' } },
    'planted',
    new Headers(headers),
  );
  return new ModelApiError(`Messages API error ${status}`, { cause, status });
}

describe('retryAfterMs', () => {
  it('reads retry-after-ms first, then retry-after in seconds or as an HTTP date', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '3' }), NOW)).toBe(
      250,
    );
    expect(retryAfterMs(new Headers({ 'retry-after': '1.5' }), NOW)).toBe(1500);
    const date = new Date(NOW + 4000).toUTCString();
    expect(retryAfterMs(new Headers({ 'retry-after': date }), NOW)).toBe(4000);
  });

  it('ignores missing, negative and unreadable values', () => {
    expect(retryAfterMs(new Headers(), NOW)).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': '-1' }), NOW)).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), NOW)).toBeUndefined();
  });
});

describe('classifyFailure', () => {
  it.each([
    [429, true, false],
    [408, true, false],
    [500, true, false],
    [529, true, true],
    [400, false, false],
    [401, false, false],
  ])('status %i: retryable %s, overloaded %s', (status, retryable, overloaded) => {
    expect(classifyFailure(apiFailure(status), NOW)).toMatchObject({
      retryable,
      overloaded,
      status,
    });
  });

  it('spots overload by the error type too, and honours x-should-retry', () => {
    expect(classifyFailure(apiFailure(503, {}, 'overloaded_error'), NOW).overloaded).toBe(true);
    expect(classifyFailure(apiFailure(500, { 'x-should-retry': 'false' }), NOW).retryable).toBe(
      false,
    );
    expect(classifyFailure(apiFailure(400, { 'x-should-retry': 'true' }), NOW).retryable).toBe(
      true,
    );
  });

  it('retries connection failures but never an abort', () => {
    const connection = new ModelApiError('cannot reach', {
      cause: new Anthropic.APIConnectionError({ message: 'socket hang up' }),
    });
    const aborted = new ModelApiError('aborted', { cause: new Anthropic.APIUserAbortError() });
    expect(classifyFailure(connection, NOW)).toMatchObject({ retryable: true, status: undefined });
    expect(classifyFailure(aborted, NOW).retryable).toBe(false);
  });
});

describe('backoffMs', () => {
  it('doubles from the initial delay up to the cap, less up to 25% jitter', () => {
    const options = { initialDelayMs: 500, maxDelayMs: 3000, random: () => 0 };
    expect([1, 2, 3, 4, 5].map((attempt) => backoffMs(attempt, options))).toEqual([
      500, 1000, 2000, 3000, 3000,
    ]);
    expect(backoffMs(1, { ...options, random: () => 1 })).toBe(375);
  });
});
