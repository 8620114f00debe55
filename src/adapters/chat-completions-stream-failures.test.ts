import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVirtualClock } from '../core/clock.js';
import {
  modelApiFailure as failure,
  type HostileApi,
  type HostileHandler,
  json,
  raw,
  startHostileApi,
} from '../runtime/testing/hostile-api.js';
import { createChatCompletionsAgent } from './chat-completions-agent.js';
import { createChatCompletion } from './chat-completions-client.js';
import { testAgentContext } from './testing/agent-context.js';
import { chatStreamOf, chatStreamText, chunks, completion, delta } from './testing/chat-answers.js';

let api: HostileApi;
beforeAll(async () => {
  api = await startHostileApi();
});
afterAll(() => api.close());

const agent = () => createChatCompletionsAgent({ tools: [], stream: true, maxRetries: 2 });
const context = (clock = createVirtualClock({ start: 0 })) =>
  testAgentContext({ fetch, baseURL: api.url, clock });

const serverError = { error: { message: 'upstream overloaded', type: 'server_error' } };

/** Streams that break after they started: each should be retried like a dropped connection. */
const broken: Array<[string, HostileHandler]> = [
  ['a connection reset mid-stream', chunks(chatStreamOf('partial').slice(0, 2), { cut: true })],
  ['a chunk that is not JSON', chunks([delta({ content: 'x' }), '{oops'])],
  ['an error the server sends in a data chunk', chunks([delta({ content: 'x' }), serverError])],
  [
    'an error the server sends as an `event: error` block',
    raw(
      `data: ${JSON.stringify(delta({ content: 'x' }))}\n\nevent: error\ndata: {"message":"boom"}\n\n`,
      'text/event-stream',
    ),
  ],
  ['an end without data: [DONE]', chunks(chatStreamOf('partial'), { done: false })],
  ['data: [DONE] without a finish_reason', chunks([delta({ content: 'x' })])],
];

describe('createChatCompletionsAgent: a stream that breaks after it started', () => {
  it.each(broken)(
    'retries %s like a dropped connection, after the same backoff, then answers',
    async (_name, first) => {
      const clock = createVirtualClock({ start: 0 });
      api.script(first, chunks(chatStreamOf('whole')));
      const output = await agent()(context(clock));
      expect(output.answer).toBe('whole');
      expect(api.requests).toHaveLength(2);
      expect(api.requests[1]).toBe(api.requests[0]);
      // The first retry's backoff: 500 ms less up to 25 % jitter, waited on the run's clock.
      expect(clock.now()).toBeGreaterThanOrEqual(375);
      expect(clock.now()).toBeLessThanOrEqual(500);
    },
  );

  it.each<[string, HostileHandler, string | undefined, RegExp]>([
    [
      'an error sent in the stream',
      chunks([delta({ content: 'x' }), serverError], { done: false }),
      'stream_error',
      /^the Chat Completions API at http:\/\/127\.0\.0\.1:\d+ sent an error inside its stream \(server_error\): upstream overloaded; /,
    ],
    [
      'a connection reset',
      chunks(chatStreamOf('partial').slice(0, 2), { cut: true }),
      'cut_response',
      /^the connection to the Chat Completions API at .* was cut before the response was complete \(terminated/,
    ],
    [
      'an end without data: [DONE]',
      chunks(chatStreamOf('partial'), { done: false }),
      'malformed_response',
      /^malformed response from the Chat Completions API at .*: the stream ended before data: \[DONE\]/,
    ],
  ])(
    'gives up on %s once its retries are spent, naming what broke',
    async (_name, handler, kind, text) => {
      api.script(handler);
      const error = await failure(agent()(context()));
      expect(error.kind).toBe(kind);
      expect(error.message).toMatch(text);
      expect(api.requests).toHaveLength(3);
    },
  );

  it('does not retry an error whose code is a status the retry policy does not retry (400), and names it', async () => {
    api.script(
      chunks([{ error: { message: 'context too long', type: 'BadRequestError', code: 400 } }], {
        done: false,
      }),
      chunks(chatStreamOf()),
    );
    const error = await failure(agent()(context()));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(
      /sent an error inside its stream \(BadRequestError, code 400\): context too long/,
    );
    expect(api.requests).toHaveLength(1);
  });

  // LiteLLM sends `code` as a string; OpenAI names the error by type and a code word.
  it.each<[string, Record<string, unknown>, number, RegExp]>([
    [
      'a string code "400" (LiteLLM)',
      { type: 'invalid_request_error', code: '400' },
      400,
      /\(invalid_request_error, code 400\)/,
    ],
    ['a string status "404"', { status: '404' }, 404, /\(code 404\)/],
    [
      "OpenAI's invalid_request_error with code context_length_exceeded",
      { type: 'invalid_request_error', code: 'context_length_exceeded' },
      400,
      /\(invalid_request_error, code context_length_exceeded\)/,
    ],
    [
      'code context_length_exceeded alone',
      { code: 'context_length_exceeded' },
      400,
      /\(code context_length_exceeded\)/,
    ],
    [
      'type authentication_error',
      { type: 'authentication_error' },
      401,
      /\(authentication_error\)/,
    ],
    ['type permission_error', { type: 'permission_error' }, 403, /\(permission_error\)/],
    ['type not_found_error', { type: 'not_found_error' }, 404, /\(not_found_error\)/],
  ])(
    'does not retry an error named by %s, and counts it as its status',
    async (_name, fields, status, named) => {
      api.script(
        chunks([{ error: { message: 'refused', ...fields } }], { done: false }),
        chunks(chatStreamOf()),
      );
      const error = await failure(agent()(context()));
      expect(error.kind).toBe('stream_error');
      expect(error.status).toBe(status);
      expect(error.message).toMatch(named);
      expect(api.requests).toHaveLength(1);
    },
  );

  it.each<[string, Record<string, unknown>, number | undefined]>([
    ['type rate_limit_error', { type: 'rate_limit_error' }, 429],
    ['a string code "503"', { code: '503' }, 503],
    ['a code word it does not know', { type: 'server_error', code: 'upstream_gone' }, undefined],
    ['a numeric string outside 400-599', { code: '200' }, undefined],
    ['a numeric string with more digits', { code: '4000' }, undefined],
    ['a status with a fraction', { status: 400.5 }, undefined],
  ])('retries an error named by %s', async (_name, fields, status) => {
    api.script(
      chunks([{ error: { message: 'busy', ...fields } }], { done: false }),
      chunks([{ error: { message: 'busy', ...fields } }], { done: false }),
      chunks([{ error: { message: 'busy', ...fields } }], { done: false }),
    );
    const error = await failure(agent()(context()));
    expect(error.status).toBe(status);
    expect(api.requests).toHaveLength(3);
  });

  it('retries an error whose code is a retried status (503)', async () => {
    api.script(
      chunks([{ error: { message: 'busy', code: 503 } }], { done: false }),
      chunks(chatStreamOf('whole')),
    );
    expect((await agent()(context())).answer).toBe('whole');
    expect(api.requests).toHaveLength(2);
  });
});

const call = (stream: boolean) =>
  createChatCompletion({
    fetch,
    baseURL: api.url,
    apiKey: 'test-key',
    body: { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], stream },
  });

describe('createChatCompletion: the request decides how the answer is read', () => {
  /** A whole stream, as a server that labels it `contentType` (none when undefined) sends it. */
  const streamLabelled =
    (contentType: string | undefined): HostileHandler =>
    (response) => {
      response.writeHead(200, contentType === undefined ? {} : { 'content-type': contentType });
      response.end(chatStreamText(chatStreamOf('labelled')));
    };

  // Both SDKs read a stream request's body as SSE whatever the content type says.
  it.each([
    ['text/plain', 'text/plain; charset=utf-8'],
    ['no content type', undefined],
  ])('reads a stream served as %s as the stream the request asked for', async (_name, type) => {
    api.script(streamLabelled(type));
    const result = await call(true);
    expect(result.message.content).toBe('labelled');
    expect(result.finishReason).toBe('stop');
  });

  it('calls a JSON answer to a stream request malformed, with its content type as a hint', async () => {
    api.script(json(completion()));
    const error = await failure(call(true));
    expect(error.kind).toBe('malformed_response');
    expect(error.message).toMatch(
      /: the stream ended before data: \[DONE\] \(the request asked for a stream \(stream: true\); the answer is application\/json, not text\/event-stream\); /,
    );
  });

  it('calls a JSON answer without a content type to a stream request malformed, saying it has none', async () => {
    api.script((response) => {
      response.writeHead(200);
      response.end(JSON.stringify(completion()));
    });
    const error = await failure(call(true));
    expect(error.kind).toBe('malformed_response');
    expect(error.message).toMatch(
      /: the stream ended before data: \[DONE\] \(the request asked for a stream \(stream: true\); the answer has no content type, not text\/event-stream\)/,
    );
  });

  it('calls a stream answer to a request without stream malformed, with its content type as a hint', async () => {
    api.script(chunks(chatStreamOf()));
    const error = await failure(call(false));
    expect(error.kind).toBe('malformed_response');
    expect(error.message).toMatch(
      /: the body is text, not a JSON object .*\(the request asked for one JSON body \(no stream\); the answer is text\/event-stream\); /,
    );
  });

  it('reads a JSON answer labelled text/plain to a request without stream as JSON', async () => {
    api.script(raw(JSON.stringify(completion()), 'text/plain'));
    expect((await call(false)).message.content).toBe('hello');
  });

  it('is retried like any malformed answer by the agent', async () => {
    api.script(json(completion()), chunks(chatStreamOf('whole')));
    expect((await agent()(context())).answer).toBe('whole');
    expect(api.requests).toHaveLength(2);
  });
});
