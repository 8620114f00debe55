import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createVirtualClock } from '../core/clock.js';
import { ModelApiError } from '../core/errors.js';
import { textTurn } from '../simulator/scripted-model.js';
import { type SimulatorFault, startSimulator } from '../simulator/server.js';
import { createConcurrencyLimit } from './concurrency-limit.js';
import {
  createAnthropicModel,
  type MessageRequest,
  type ModelClient,
  type ModelEvent,
} from './model-client.js';
import { createRetryingModel, type RetryingModelOptions } from './retrying-model.js';

const request: MessageRequest = {
  model: 'main-model',
  max_tokens: 50,
  messages: [{ role: 'user', content: 'hello' }],
};

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

type Behaviour = (request: IncomingMessage, response: ServerResponse, body: string) => void;

/** A stand-in on 127.0.0.1 that answers request i with behaviour i, then with a message. */
async function scriptedServer(behaviours: Behaviour[]) {
  const bodies: Array<{ model: string }> = [];
  const server = createServer((incoming, response) => {
    const parts: Buffer[] = [];
    incoming.on('data', (part: Buffer) => parts.push(part));
    incoming.on('end', () => {
      const body = Buffer.concat(parts).toString('utf8');
      bodies.push(JSON.parse(body));
      const behaviour = behaviours.shift() ?? answer;
      behaviour(incoming, response, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies };
}

const answer: Behaviour = (_request, response, body) => {
  const { model } = JSON.parse(body) as { model: string };
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ ...textTurn('ok'), model }));
};
const status =
  (code: number, headers: Record<string, string> = {}): Behaviour =>
  (_request, response) => {
    response.writeHead(code, { 'content-type': 'application/json', ...headers });
    response.end(
      JSON.stringify({ type: 'error', error: { type: 'api_error', message: `planted ${code}` } }),
    );
  };
const reset: Behaviour = (request) => request.socket.destroy();

function retrying(baseURL: string, options: Partial<RetryingModelOptions> = {}) {
  const clock = createVirtualClock({ start: 0 });
  const client = new Anthropic({ apiKey: 'test-key', baseURL, maxRetries: 0 });
  const events: ModelEvent[] = [];
  const model = createRetryingModel({
    model: createAnthropicModel({ client }),
    clock,
    random: () => 0,
    ...options,
  });
  const call = () => model.createMessage(request, { onEvent: (event) => events.push(event) });
  return { clock, events, call };
}

async function simulatorWith(faults: SimulatorFault[]) {
  const simulator = await startSimulator({ faults });
  closers.push(() => simulator.close());
  return simulator;
}

describe('createRetryingModel against a local server', () => {
  it('waits out a 429 for as long as retry-after says, on the clock', async () => {
    const simulator = await simulatorWith([{ status: 429, retryAfterSeconds: 2 }]);
    const { clock, events, call } = retrying(simulator.url);
    const message = await call();
    expect(message.content[0]).toMatchObject({ type: 'text' });
    expect(simulator.requestCount()).toBe(2);
    expect(clock.now()).toBe(2000);
    expect(events).toEqual([
      expect.objectContaining({ type: 'model_retry', status: 429, attempt: 1, wait_ms: 2000 }),
    ]);
  });

  it('prefers retry-after-ms to retry-after', async () => {
    const server = await scriptedServer([
      status(429, { 'retry-after-ms': '1500', 'retry-after': '9' }),
    ]);
    const { clock, events, call } = retrying(server.url);
    await call();
    expect(clock.now()).toBe(1500);
    expect(events).toMatchObject([{ type: 'model_retry', wait_ms: 1500 }]);
  });

  it('falls back to the next model on 529 overloaded', async () => {
    const simulator = await simulatorWith([{ status: 529 }]);
    const { events, call } = retrying(simulator.url, { fallbackModels: ['fallback-model'] });
    const message = await call();
    expect(message.model).toBe('fallback-model');
    expect(events).toEqual([
      { type: 'model_fallback', from: 'main-model', to: 'fallback-model', reason: 'overloaded' },
    ]);
  });

  it('retries a 529 with backoff when no fallback is left', async () => {
    const simulator = await simulatorWith([{ status: 529 }]);
    const { clock, events, call } = retrying(simulator.url);
    await call();
    expect(events).toMatchObject([{ type: 'model_retry', status: 529, wait_ms: 500 }]);
    expect(clock.now()).toBe(500);
  });

  it('backs off exponentially on 500s and retries a connection reset', async () => {
    const server = await scriptedServer([status(500), status(500), reset]);
    const { clock, events, call } = retrying(server.url);
    await call();
    expect(server.bodies).toHaveLength(4);
    expect(events.map((event) => (event.type === 'model_retry' ? event.wait_ms : -1))).toEqual([
      500, 1000, 2000,
    ]);
    expect(events[2]).not.toHaveProperty('status');
    expect(clock.now()).toBe(3500);
  });

  it('does not retry a 400', async () => {
    const server = await scriptedServer([status(400)]);
    const { events, call } = retrying(server.url);
    await expect(call()).rejects.toThrow(ModelApiError);
    expect(server.bodies).toHaveLength(1);
    expect(events).toEqual([]);
  });

  it('gives up after maxRetries with the last error', async () => {
    const server = await scriptedServer([status(503), status(503), status(503)]);
    const { events, call } = retrying(server.url, { maxRetries: 2 });
    await expect(call()).rejects.toThrow('Messages API error 503');
    expect(server.bodies).toHaveLength(3);
    expect(events).toHaveLength(2);
  });

  it('falls back after retries run out on a model that stays unavailable', async () => {
    const server = await scriptedServer([status(500), status(500)]);
    const { events, call } = retrying(server.url, { maxRetries: 1, fallbackModels: ['spare'] });
    const message = await call();
    expect(message.model).toBe('spare');
    expect(events.map((event) => event.type)).toEqual(['model_retry', 'model_fallback']);
    expect(events[1]).toMatchObject({ reason: 'unavailable' });
  });
});

describe('createRetryingModel with a model double', () => {
  it('asks the fallback model when the first one refuses', async () => {
    const seen: string[] = [];
    const inner: ModelClient = {
      async createMessage(body) {
        seen.push(body.model);
        return body.model === 'main-model' ? textTurn('', 'refusal') : textTurn('answered');
      },
    };
    const events: ModelEvent[] = [];
    const model = createRetryingModel({
      model: inner,
      clock: createVirtualClock({ start: 0 }),
      fallbackModels: ['careful-model'],
    });
    const message = await model.createMessage(request, { onEvent: (event) => events.push(event) });
    expect(seen).toEqual(['main-model', 'careful-model']);
    expect(message.content[0]).toMatchObject({ text: 'answered' });
    expect(events).toMatchObject([{ type: 'model_fallback', reason: 'refusal' }]);
  });

  it('lets a 429 pause every caller sharing the limit, so a storm slows the run down', async () => {
    const clock = createVirtualClock({ start: 0 });
    const limit = createConcurrencyLimit({ max: 2, clock });
    const started: Array<[string, number]> = [];
    let limited = true;
    const inner: ModelClient = {
      async createMessage(body) {
        started.push([String(body.messages[0]?.content), clock.now()]);
        if (body.messages[0]?.content === 'first' && limited) {
          limited = false;
          const headers = new Headers({ 'retry-after': '5' });
          throw new ModelApiError('Messages API error 429', {
            status: 429,
            cause: new Anthropic.RateLimitError(429, undefined, 'rate limited', headers),
          });
        }
        return textTurn('ok');
      },
    };
    const model = createRetryingModel({ model: inner, clock, limit });
    const ask = (content: string) =>
      model.createMessage({ ...request, messages: [{ role: 'user', content }] });
    const first = ask('first');
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([first, ask('second')]);
    // 'second' arrived while the 429's retry-after held the limit: it waited 5 s too.
    expect(started).toEqual([
      ['first', 0],
      ['first', 5000],
      ['second', 5000],
    ]);
  });
});
