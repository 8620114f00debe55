import { describe, expect, it } from 'vitest';
import type { SseEvent, TapedRequest, TapedResponse } from './cassette.js';
import { createTape, type TapeOutcome } from './tape.js';
import { deferred } from './testing/deferred.js';

const request = (text: string): TapedRequest => ({
  method: 'POST',
  path: '/v1/messages',
  headers: {},
  body: { messages: [{ content: text, role: 'user' }] },
});

/** A valid Messages API message: what a 2xx answer must be to count as an answer. */
const message = (text: string) => ({
  content: [{ text, type: 'text' }],
  id: 'msg_1',
  model: 'claude-test-1',
  role: 'assistant',
  stop_reason: 'end_turn',
  stop_sequence: null,
  type: 'message',
  usage: { input_tokens: 1, output_tokens: 1 },
});

function answer(
  tape: ReturnType<typeof createTape>,
  text: string,
  status: number,
  latencyMs: number,
  options: { headers?: Record<string, string>; body?: unknown; events?: SseEvent[] } = {},
) {
  // The request asks for what came: a stream when events came.
  const asked = request(text);
  const entry = tape.begin(
    options.events ? { ...asked, body: { ...(asked.body as object), stream: true } } : asked,
  );
  const settle = deferred<TapeOutcome>();
  entry.settle(settle.promise);
  const body = 'body' in options ? options.body : status < 300 ? message(text) : text;
  const response: TapedResponse = options.events
    ? { status, headers: {}, events: options.events }
    : { status, headers: {}, body };
  const shouldRetry = new Headers(options.headers).get('x-should-retry');
  return () => settle.resolve({ response, latencyMs, shouldRetry });
}

const sseEvent = (data: { type: string; [key: string]: unknown }): SseEvent => ({
  event: data.type,
  data,
});

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
      { status: 200, headers: {}, body: message('first') },
      { status: 200, headers: {}, body: message('second') },
    ]);
  });

  it('fails when an upstream request failed', async () => {
    const tape = createTape();
    tape.begin(request('a')).settle(Promise.reject(new Error('ECONNREFUSED')));
    await expect(tape.exchanges()).rejects.toThrow('ECONNREFUSED');
  });

  // One definition of "this answer was retried" for the retry layer and the tape.
  it('folds a 400 the server marked x-should-retry: true, as the retry layer retries it', async () => {
    const tape = createTape();
    answer(tape, 'a', 400, 30, { headers: { 'x-should-retry': 'true' } })();
    answer(tape, 'a', 200, 50)();
    const exchanges = await tape.exchanges();
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]?.retries).toEqual([{ status: 400, latencyMs: 30 }]);
  });

  it('keeps a 503 marked x-should-retry: false as data: the retry layer does not retry it', async () => {
    const tape = createTape();
    answer(tape, 'a', 503, 30, { headers: { 'x-should-retry': 'false' } })();
    answer(tape, 'a', 200, 50)();
    expect((await tape.exchanges()).map((exchange) => exchange.response.status)).toEqual([
      503, 200,
    ]);
  });

  it.each([
    ['an HTML page', '<html>Bad Gateway</html>'],
    ['JSON null', null],
    ['content as a string', { ...message('a'), content: 'a' }],
    ['usage as strings', { ...message('a'), usage: { input_tokens: '5', output_tokens: '1' } }],
  ])(
    'folds a 200 whose body is not a message (%s) followed by the same request',
    async (_name, body) => {
      const tape = createTape();
      answer(tape, 'a', 200, 30, { body })();
      answer(tape, 'a', 200, 50)();
      const exchanges = await tape.exchanges();
      expect(exchanges).toHaveLength(1);
      expect(exchanges[0]?.response).toMatchObject({ body: message('a') });
      expect(exchanges[0]?.retries).toEqual([{ status: 200, latencyMs: 30 }]);
    },
  );

  /** The first event of a streamed answer. */
  const start = sseEvent({
    type: 'message_start',
    message: { ...message(''), content: [], stop_reason: null },
  });
  /** A streamed answer that assembles to a message. */
  const wholeStream = [
    start,
    sseEvent({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: 1 },
    }),
    sseEvent({ type: 'message_stop' }),
  ];

  it('folds a stream that sent overloaded_error, and one that ended before message_stop', async () => {
    const tape = createTape();
    answer(tape, 'a', 200, 10, {
      events: [
        start,
        sseEvent({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
      ],
    })();
    answer(tape, 'a', 200, 20, { events: [start, sseEvent({ type: 'ping' })] })();
    answer(tape, 'a', 200, 30, { events: wholeStream })();
    const exchanges = await tape.exchanges();
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]?.retries?.map((retry) => retry.latencyMs)).toEqual([10, 20]);
  });

  it('keeps a stream that sent invalid_request_error as data: it is not retried', async () => {
    const tape = createTape();
    answer(tape, 'a', 200, 10, {
      events: [
        start,
        sseEvent({ type: 'error', error: { type: 'invalid_request_error', message: 'no' } }),
      ],
    })();
    answer(tape, 'a', 200, 30, { events: wholeStream })();
    expect(await tape.exchanges()).toHaveLength(2);
  });

  it('folds a body cut mid-way followed by the same request, with its status', async () => {
    const tape = createTape();
    const cut = tape.begin(request('a'));
    cut.settle(
      Promise.resolve({
        response: { status: 200, headers: {}, body: '{"id":' },
        latencyMs: 15,
        cut: new Error('terminated'),
      }),
    );
    answer(tape, 'a', 200, 50)();
    const exchanges = await tape.exchanges();
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]?.retries).toEqual([{ status: 200, latencyMs: 15 }]);
  });

  it('fails when the last answer was cut: nothing complete to record', async () => {
    const tape = createTape();
    const cut = tape.begin(request('a'));
    cut.settle(
      Promise.resolve({
        response: { status: 200, headers: {}, body: '{"id":' },
        latencyMs: 15,
        cut: new Error('terminated'),
      }),
    );
    await expect(tape.exchanges()).rejects.toThrow(
      'the response to POST /v1/messages was cut before it was complete (terminated)',
    );
  });

  const chatAnswer = (text: string) => ({
    choices: [{ finish_reason: 'stop', index: 0, message: { content: text, role: 'assistant' } }],
    usage: { completion_tokens: 1, prompt_tokens: 1 },
  });
  const chatEvents = (data: unknown[]): SseEvent[] =>
    [...data, '[DONE]'].map((item) => ({ event: 'message', data: item }));

  const chatStream = (text: string) =>
    chatEvents([
      { choices: [{ delta: { content: text }, finish_reason: 'stop', index: 0 }] },
      { choices: [], usage: { completion_tokens: 1, prompt_tokens: 1 } },
    ]);

  /** A chat answer to a request that asked for what came (events: a stream) unless `stream` says otherwise. */
  function answerChat(
    tape: ReturnType<typeof createTape>,
    latencyMs: number,
    answer: unknown,
    stream = Array.isArray(answer),
  ) {
    const { body } = request('a') as { body: Record<string, unknown> };
    const entry = tape.begin({
      ...request('a'),
      path: '/v1/chat/completions',
      body: stream ? { ...body, stream: true } : body,
    });
    const response: TapedResponse = Array.isArray(answer)
      ? { status: 200, headers: {}, events: answer as SseEvent[] }
      : { status: 200, headers: {}, body: answer };
    entry.settle(Promise.resolve({ response, latencyMs }));
  }

  it('keeps a valid Chat Completions answer repeated: a deliberate repeat is not a retry', async () => {
    const tape = createTape();
    answerChat(tape, 10, chatAnswer('a'));
    answerChat(tape, 20, chatAnswer('a'));
    expect(await tape.exchanges()).toHaveLength(2);
  });

  it.each([
    ['an HTML page', '<html>Bad Gateway</html>'],
    ['empty choices', { choices: [] }],
    [
      'usage as strings',
      { ...chatAnswer('a'), usage: { completion_tokens: 1, prompt_tokens: '1' } },
    ],
    [
      'a stream that ended before [DONE]',
      chatEvents([
        { choices: [{ delta: { content: 'a' }, finish_reason: 'stop', index: 0 }] },
      ]).slice(0, 1),
    ],
    [
      'a stream with a content number',
      chatEvents([{ choices: [{ delta: { content: 7 }, finish_reason: 'stop', index: 0 }] }]),
    ],
  ])(
    'folds a 200 that is not a Chat Completions answer (%s) followed by the same request',
    async (_name, answer) => {
      const tape = createTape();
      answerChat(tape, 10, answer);
      // The retry asks for what the first request asked for, and gets it whole.
      const whole = Array.isArray(answer) ? { events: chatStream('a') } : { body: chatAnswer('a') };
      answerChat(tape, 20, whole.events ?? whole.body);
      const exchanges = await tape.exchanges();
      expect(exchanges).toHaveLength(1);
      expect(exchanges[0]?.response).toMatchObject(whole);
      expect(exchanges[0]?.retries).toEqual([{ status: 200, latencyMs: 10 }]);
    },
  );

  it.each([
    ['an error in a data chunk', chatEvents([{ error: { message: 'upstream overloaded' } }])],
    ['an event: error block', [{ event: 'error', data: { message: 'boom' } }]],
    ['an error whose code is a retried status', chatEvents([{ error: { code: 503 } }])],
  ])(
    'folds a Chat Completions stream that sent %s, followed by the same request, as the client retries it',
    async (_name, events) => {
      const tape = createTape();
      answerChat(tape, 10, events);
      answerChat(tape, 20, chatStream('a'));
      const exchanges = await tape.exchanges();
      expect(exchanges).toHaveLength(1);
      expect(exchanges[0]?.response).toMatchObject({ events: chatStream('a') });
      expect(exchanges[0]?.retries).toEqual([{ status: 200, latencyMs: 10 }]);
    },
  );

  it.each([
    ['code 400', { code: 400 }],
    ['the string code "400" (LiteLLM)', { code: '400' }],
    [
      'invalid_request_error, code context_length_exceeded (OpenAI)',
      { type: 'invalid_request_error', code: 'context_length_exceeded' },
    ],
  ])(
    'keeps a Chat Completions stream error the client does not retry (%s) as data',
    async (_name, fields) => {
      const tape = createTape();
      answerChat(tape, 10, chatEvents([{ error: { message: 'too long', ...fields } }]));
      answerChat(tape, 20, chatStream('a'));
      expect(await tape.exchanges()).toHaveLength(2);
    },
  );

  it.each([
    ['a JSON answer to a stream request', chatAnswer('a'), chatStream('a'), true],
    ['a stream answer to a request without stream', chatStream('a'), chatAnswer('a'), false],
  ])(
    'folds %s (the client refuses the mismatch) followed by the same request',
    async (_name, mismatched, whole, stream) => {
      const tape = createTape();
      answerChat(tape, 10, mismatched, stream);
      answerChat(tape, 20, whole, stream);
      const exchanges = await tape.exchanges();
      expect(exchanges).toHaveLength(1);
      expect(exchanges[0]?.response).toMatchObject(stream ? { events: whole } : { body: whole });
      expect(exchanges[0]?.retries).toEqual([{ status: 200, latencyMs: 10 }]);
    },
  );

  it.each([
    ['a JSON message to a stream request', { body: message('a') }, { events: wholeStream }, true],
    [
      'a stream to a request without stream',
      { events: wholeStream },
      { body: message('a') },
      false,
    ],
  ])(
    'folds a Messages API answer in the other format than its request asked for (%s)',
    async (_name, mismatched, whole, stream) => {
      const tape = createTape();
      const asked = { ...request('a'), body: { ...(request('a').body as object), stream } };
      for (const [latencyMs, answered] of [
        [10, mismatched],
        [20, whole],
      ] as const) {
        const response = { status: 200, headers: {}, ...answered } as TapedResponse;
        tape.begin(asked).settle(Promise.resolve({ response, latencyMs }));
      }
      const exchanges = await tape.exchanges();
      expect(exchanges).toHaveLength(1);
      expect(exchanges[0]?.response).toMatchObject(whole);
      expect(exchanges[0]?.retries).toEqual([{ status: 200, latencyMs: 10 }]);
    },
  );

  it('fails when the last answer is a broken stream: nothing complete to record', async () => {
    const tape = createTape();
    answerChat(tape, 10, chatEvents([{ error: { message: 'upstream overloaded' } }]));
    await expect(tape.exchanges()).rejects.toThrow(
      /^the response to POST \/v1\/chat\/completions is not a complete answer \(the client retries it\), and no retry followed it: nothing to record$/,
    );
  });
});
