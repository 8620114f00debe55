import { describe, expect, it } from 'vitest';
import type { TapedRequest, TapedResponse } from './cassette.js';
import { createTape } from './tape.js';
import { deferred } from './testing/deferred.js';

const request = (text: string): TapedRequest => ({
  method: 'POST',
  path: '/v1/messages',
  headers: {},
  body: { messages: [{ content: text, role: 'user' }] },
});

function answer(
  tape: ReturnType<typeof createTape>,
  text: string,
  status: number,
  latencyMs: number,
) {
  const entry = tape.begin(request(text));
  entry.setStatus(status);
  const settle = deferred<{ response: TapedResponse; latencyMs: number }>();
  entry.settle(settle.promise);
  return () => settle.resolve({ response: { status, headers: {}, body: text }, latencyMs });
}

describe('createTape', () => {
  it('folds a retryable answer followed by the same request into the next exchange', async () => {
    const tape = createTape();
    answer(tape, 'a', 529, 30)();
    answer(tape, 'a', 500, 40)();
    answer(tape, 'a', 200, 50)();
    const exchanges = await tape.exchanges();
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]?.response.status).toBe(200);
    expect(exchanges[0]?.retries).toEqual([
      { status: 529, latencyMs: 30 },
      { status: 500, latencyMs: 40 },
    ]);
  });

  it('keeps an error followed by a different request as data', async () => {
    const tape = createTape();
    answer(tape, 'a', 529, 30)();
    answer(tape, 'b', 200, 50)();
    const exchanges = await tape.exchanges();
    expect(exchanges.map((exchange) => exchange.response.status)).toEqual([529, 200]);
    expect(exchanges.every((exchange) => exchange.retries === undefined)).toBe(true);
  });

  it('keeps a success followed by the same request: a deliberate repeat is not a retry', async () => {
    const tape = createTape();
    answer(tape, 'a', 200, 10)();
    answer(tape, 'a', 200, 20)();
    expect(await tape.exchanges()).toHaveLength(2);
  });

  it('keeps request order when later bodies finish draining first', async () => {
    const tape = createTape();
    const first = answer(tape, 'first', 200, 10);
    answer(tape, 'second', 200, 20)();
    const done = tape.exchanges();
    first();
    expect((await done).map((exchange) => exchange.response)).toEqual([
      { status: 200, headers: {}, body: 'first' },
      { status: 200, headers: {}, body: 'second' },
    ]);
  });

  it('fails when an upstream request failed', async () => {
    const tape = createTape();
    tape.begin(request('a')).settle(Promise.reject(new Error('ECONNREFUSED')));
    await expect(tape.exchanges()).rejects.toThrow('ECONNREFUSED');
  });
});
