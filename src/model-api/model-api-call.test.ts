import { describe, expect, it } from 'vitest';
import type { Clock } from '../core/clock.js';
import { ModelApiError } from '../core/errors.js';
import { callModelApi, type ModelApiCallOptions } from './model-api-call.js';

/** A fetch that answers in turn with these; every wait noted, none taken. */
function answering(
  ...answers: Array<{ status: number; body: unknown; headers?: Record<string, string> }>
) {
  const waits: number[] = [];
  let calls = 0;
  const clock: Clock = {
    now: () => Date.parse('2026-12-07T12:00:00Z'),
    sleep: async (ms) => {
      waits.push(ms);
    },
  };
  const fetch = (async () => {
    const answer = answers[Math.min(calls, answers.length - 1)]!;
    calls += 1;
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
  }) as typeof globalThis.fetch;
  const options: ModelApiCallOptions = {
    baseURL: 'http://127.0.0.1:9/v1',
    path: '/responses',
    api: 'responses',
    headers: {},
    body: { model: 'm' },
    fetch,
    timeoutMs: 60_000,
    deadlineFix: '--model-timeout',
    clock,
    model: 'm',
    random: () => 0,
  };
  return { options, waits, calls: () => calls };
}

const RESPONSE = { id: 'resp_1', object: 'response', status: 'completed', output: [] };

describe('callModelApi', () => {
  it('retries a 2xx that is not an answer of its API, and returns every answer in order', async () => {
    const { options, calls } = answering(
      { status: 200, body: { output: 'no' } },
      { status: 200, body: RESPONSE },
    );
    const answers = await callModelApi(options);
    expect(calls()).toBe(2);
    expect(answers.map((answer) => [answer.status, JSON.parse(answer.text)])).toEqual([
      [200, { output: 'no' }],
      [200, RESPONSE],
    ]);
  });

  it('ends with an error status it does not retry, or one that outlasted the retries, as an answer', async () => {
    const refused = answering({ status: 400, body: { error: { message: 'bad' } } });
    expect((await callModelApi(refused.options)).map((answer) => answer.status)).toEqual([400]);
    const overloaded = answering({ status: 529, body: {}, headers: { 'retry-after': '0' } });
    const answers = await callModelApi({ ...overloaded.options, maxRetries: 2 });
    expect(answers.map((answer) => answer.status)).toEqual([529, 529, 529]);
    expect(overloaded.waits).toEqual([0, 0]);
  });

  it('throws the model API error of a host it cannot reach', async () => {
    const { options } = answering({ status: 200, body: RESPONSE });
    const failing = {
      ...options,
      maxRetries: 0,
      fetch: (async () => {
        throw new TypeError('fetch failed', {
          cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
        });
      }) as typeof globalThis.fetch,
    };
    const error = await callModelApi(failing).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ModelApiError);
    expect((error as ModelApiError).message).toMatch(
      /^cannot reach the Responses API at http:\/\/127\.0\.0\.1:9\/v1: ECONNREFUSED connect/,
    );
  });
});
