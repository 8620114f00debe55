import type { ServerResponse } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVirtualClock } from '../core/clock.js';
import {
  createAnthropicModel,
  type MessageRequest,
  type ModelEvent,
} from '../model-api/model-client.js';
import { createRetryingModel } from '../model-api/retrying-model.js';
import { deferred } from '../replay/testing/deferred.js';
import {
  cutJson,
  modelApiFailure as failure,
  type HostileApi,
  json,
  raw,
  sse,
  stall,
  startHostileApi,
  streamOf,
  textMessage,
} from './testing/hostile-api.js';

let api: HostileApi;
beforeAll(async () => {
  api = await startHostileApi();
});
afterAll(() => api.close());

const request: MessageRequest = {
  model: 'claude-test-1',
  max_tokens: 10,
  messages: [{ role: 'user', content: 'hi' }],
};

const client = () => new Anthropic({ apiKey: 'test-key', baseURL: api.url, maxRetries: 0 });

const call = (stream = false) =>
  createAnthropicModel({ client: client(), stream }).createMessage(request);

describe('createAnthropicModel: a 200 whose body is not a message', () => {
  it.each([
    [
      'an HTML gateway page',
      raw('<html><body>Bad Gateway</body></html>', 'text/html'),
      /the body is text, not a JSON object/,
    ],
    ['JSON null', json('null'), /the body is null, not a JSON object/],
    ['a JSON array', json('[1,2,3]'), /the body is an array, not a JSON object/],
    [
      'content as a string',
      json({ ...textMessage(), content: 'hello' }),
      /content is a string, not an array of blocks/,
    ],
    [
      'a block without a type',
      json({ ...textMessage(), content: [{ text: 'x' }] }),
      /content\[0\]\.type is missing/,
    ],
    [
      'a text block without text',
      json({ ...textMessage(), content: [{ type: 'text' }] }),
      /content\[0\]\.text is missing/,
    ],
    [
      'a tool_use block without a name',
      json({ ...textMessage(), content: [{ type: 'tool_use', id: 't1', input: {} }] }),
      /content\[0\]\.name is missing/,
    ],
    [
      'two tool_use blocks with one id',
      json({
        ...textMessage(),
        stop_reason: 'tool_use',
        content: [
          { type: 'tool_use', id: 'toolu_same', name: 'refund', input: { order_id: 'SMALL' } },
          { type: 'tool_use', id: 'toolu_same', name: 'refund', input: { order_id: 'BIG' } },
        ],
      }),
      /content\[1\]\.id 'toolu_same' is the id of content\[0\] too: each tool_use needs its own id/,
    ],
    [
      'type error',
      json({ type: 'error', error: { type: 'api_error', message: 'x' } }),
      /type is 'error', not 'message'/,
    ],
    ['the wrong role', json({ ...textMessage(), role: 'user' }), /role is 'user', not 'assistant'/],
    [
      'usage numbers as strings',
      json(textMessage('x', { input_tokens: '30000', output_tokens: '1' })),
      /usage\.input_tokens is a string, not a whole number >= 0/,
    ],
    [
      'negative usage',
      json(textMessage('x', { input_tokens: -5, output_tokens: 1 })),
      /usage\.input_tokens is -5, not a whole number >= 0/,
    ],
    [
      'fractional usage',
      json(textMessage('x', { input_tokens: 1, output_tokens: 1.5 })),
      /usage\.output_tokens is 1\.5/,
    ],
    [
      'a cache count as a string',
      json(textMessage('x', { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: '9' })),
      /usage\.cache_read_input_tokens is a string/,
    ],
    ['no usage', json({ ...textMessage(), usage: undefined }), /usage is missing/],
    ['no stop_reason', json({ ...textMessage(), stop_reason: null }), /stop_reason is null/],
    [
      'a JSON body that does not parse',
      raw('{"id":"msg_01","content":[{"type":"text","text":"trunc', 'application/json'),
      /the body is not valid JSON/,
    ],
  ])('refuses %s as a malformed response naming what is wrong', async (_name, handler, detail) => {
    api.script(handler);
    const error = await failure(call());
    expect(error.kind).toBe('malformed_response');
    expect(error.message).toMatch(
      new RegExp(`^malformed response from the Messages API at ${api.url}: `),
    );
    expect(error.message).toMatch(detail);
    expect(error.message).not.toMatch(/Cannot read properties|undefined \(reading/);
  });

  it('accepts unknown extra fields, unknown block types and null cache counts', async () => {
    const message = {
      ...textMessage('fine', {
        input_tokens: 3,
        output_tokens: 2,
        cache_read_input_tokens: null,
        cache_creation_input_tokens: 0,
        server_tool_use: { web_search_requests: 1 },
      }),
      content: [
        { type: 'thinking', thinking: 'hm', signature: 's' },
        { type: 'mystery_block', payload: 'x' },
        {
          type: 'tool_use',
          id: 't1',
          name: 'get_order',
          input: 'not an object: the pipeline refuses it',
        },
        { type: 'text', text: 'fine' },
      ],
      container: null,
      brand_new_field: { nested: true },
    };
    api.script(json(message));
    const answer = await call();
    expect(answer.content).toHaveLength(4);
    expect(answer.usage.input_tokens).toBe(3);
  });
});

describe('createAnthropicModel: broken transports and streams', () => {
  it('calls a JSON body cut mid-way a cut response, not a raw "terminated"', async () => {
    api.script(cutJson('{"id":"msg_01","type":"message","content":[{"type":"text","text":"par'));
    const error = await failure(call());
    expect(error.kind).toBe('cut_response');
    expect(error.message).toMatch(
      /^the connection to the Messages API at .* was cut before the response was complete/,
    );
  });

  it('calls an SSE stream cut mid-way a cut response', async () => {
    api.script(sse(streamOf('partial').slice(0, 3), { cut: true }));
    const error = await failure(call(true));
    expect(error.kind).toBe('cut_response');
  });

  it('calls a stream that ends before message_stop a malformed response', async () => {
    api.script(sse(streamOf('partial').slice(0, 3)));
    const error = await failure(call(true));
    expect(error.kind).toBe('malformed_response');
    expect(error.message).toMatch(/stream ended/);
  });

  it('calls a delta for a block that never started a malformed response', async () => {
    const events = streamOf('x');
    api.script(
      sse([
        events[0]!,
        { type: 'content_block_delta', index: 5, delta: { type: 'text_delta', text: 'x' } },
        ...events.slice(4),
      ]),
    );
    const error = await failure(call(true));
    expect(error.kind).toBe('malformed_response');
  });

  it('checks the message a stream assembles to (usage strings in message_delta)', async () => {
    const events = streamOf('x');
    events[4] = { ...events[4]!, usage: { output_tokens: '7' } };
    api.script(sse(events));
    const error = await failure(call(true));
    expect(error.kind).toBe('malformed_response');
    expect(error.message).toMatch(/usage\.output_tokens is a string/);
  });

  it('treats overloaded_error sent mid-stream like a 529', async () => {
    api.script(
      sse([
        streamOf()[0]!,
        { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      ]),
    );
    const error = await failure(call(true));
    expect(error.status).toBe(529);
    expect(error.message).toBe(
      'Messages API error overloaded_error (sent in the stream, treated as 529): Overloaded',
    );
  });
});

describe('createAnthropicModel: the deadline on the whole call', () => {
  it('ends a call whose body never completes at the deadline, naming it and how to change it', async () => {
    const clock = createVirtualClock({ start: 0, autoAdvance: false });
    const headersSent = deferred<void>();
    api.script((response, request) => {
      stall(response, request);
      headersSent.resolve();
    });
    const model = createAnthropicModel({ client: client(), timeoutMs: 5000, clock });
    const pending = failure(model.createMessage(request));
    let settled = false;
    const done = () => {
      settled = true;
    };
    pending.then(done, done);
    await headersSent.promise;
    expect(clock.pending()).toBe(1);
    clock.advance(4999);
    await new Promise((resolve) => setImmediate(resolve));
    // Still open 1 ms before the deadline.
    expect(settled).toBe(false);
    expect(api.requests).toHaveLength(1);
    clock.advance(1);
    const error = await pending;
    expect(error.kind).toBe('deadline');
    expect(error.message).toMatch(
      /^no complete answer from the Messages API at http:\/\/127\.0\.0\.1:\d+ within 5 s \(the deadline covers the whole call, headers and body\); raise it with HARNESS_MODEL_TIMEOUT=SECONDS \(agent and record: --model-timeout SECONDS; library: createAnthropicModel's timeoutMs\)$/,
    );
    expect(clock.pending()).toBe(0);
  });

  it('ends a stream that only sends pings at the deadline', async () => {
    const clock = createVirtualClock({ start: 0, autoAdvance: false });
    const pinged = deferred<ServerResponse>();
    api.script((response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`event: message_start\ndata: ${JSON.stringify(streamOf()[0])}\n\n`);
      response.write('event: ping\ndata: {"type":"ping"}\n\n');
      pinged.resolve(response);
    });
    const model = createAnthropicModel({ client: client(), stream: true, timeoutMs: 1000, clock });
    const pending = failure(model.createMessage(request));
    await pinged.promise;
    clock.advance(1000);
    expect((await pending).kind).toBe('deadline');
  });

  it('clears its timer when the call answers in time', async () => {
    const clock = createVirtualClock({ start: 0, autoAdvance: false });
    api.script(json(textMessage()));
    await createAnthropicModel({ client: client(), clock, timeoutMs: 1000 }).createMessage(request);
    expect(clock.pending()).toBe(0);
  });

  it('refuses a deadline a timer cannot hold', () => {
    for (const timeoutMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31]) {
      expect(() => createAnthropicModel({ client: client(), timeoutMs })).toThrow(/timeoutMs/);
    }
  });
});

describe('createRetryingModel over hostile answers', () => {
  const retrying = (options: { stream?: boolean; fallbackModels?: string[] } = {}) => {
    const events: ModelEvent[] = [];
    const model = createRetryingModel({
      model: createAnthropicModel({ client: client(), stream: options.stream ?? false }),
      clock: createVirtualClock({ start: 0 }),
      maxRetries: 2,
      ...(options.fallbackModels && { fallbackModels: options.fallbackModels }),
    });
    return {
      events,
      call: (body = request) =>
        model.createMessage(body, { onEvent: (event) => events.push(event) }),
    };
  };

  it('retries a malformed 200 like a gateway 5xx, then answers', async () => {
    api.script(raw('<html>Bad Gateway</html>', 'text/html'), json(textMessage('second')));
    const { call, events } = retrying();
    const answer = await call();
    expect(answer.content).toEqual([{ type: 'text', text: 'second' }]);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'model_retry',
        attempt: 1,
        error: expect.stringMatching(/^malformed response/),
      }),
    ]);
  });

  it('retries an answer with two tool_use blocks of one id, then answers', async () => {
    const call = { type: 'tool_use', id: 'toolu_same', name: 'refund', input: {} };
    api.script(
      json({ ...textMessage(), stop_reason: 'tool_use', content: [call, call] }),
      json(textMessage('second')),
    );
    const { call: ask, events } = retrying();
    expect((await ask()).content).toEqual([{ type: 'text', text: 'second' }]);
    expect(events).toEqual([
      expect.objectContaining({ type: 'model_retry', error: expect.stringMatching(/toolu_same/) }),
    ]);
  });

  it('retries a cut JSON body like a dropped connection', async () => {
    api.script(cutJson('{"id":"msg'), json(textMessage('second')));
    const { call, events } = retrying();
    expect((await call()).content).toEqual([{ type: 'text', text: 'second' }]);
    expect(events.map((event) => event.type)).toEqual(['model_retry']);
  });

  it('falls back on overloaded_error sent mid-stream, as on a 529', async () => {
    api.script(
      sse([
        streamOf()[0]!,
        { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      ]),
      sse(streamOf('from the fallback')),
    );
    const { call, events } = retrying({ stream: true, fallbackModels: ['claude-fallback'] });
    expect((await call()).content).toEqual([{ type: 'text', text: 'from the fallback' }]);
    expect(events).toEqual([
      {
        type: 'model_fallback',
        from: 'claude-test-1',
        to: 'claude-fallback',
        reason: 'overloaded',
      },
    ]);
    expect(JSON.parse(api.requests[1]!).model).toBe('claude-fallback');
  });

  it('gives up on a malformed answer after its retries with the malformed-response error', async () => {
    api.script(json('null'));
    const { call } = retrying();
    const error = await failure(call());
    expect(error.kind).toBe('malformed_response');
    expect(api.requests).toHaveLength(3);
  });
});
