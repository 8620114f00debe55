import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVirtualClock } from '../core/clock.js';
import {
  cutJson,
  modelApiFailure as failure,
  type HostileApi,
  type HostileHandler,
  json,
  raw,
  stall,
  startHostileApi,
} from '../runtime/testing/hostile-api.js';
import { createChatCompletionsAgent } from './chat-completions-agent.js';
import { createChatCompletion } from './chat-completions-client.js';
import { testAgentContext } from './testing/agent-context.js';
import { chunks, completion, delta, chatStreamOf as streamOf } from './testing/chat-answers.js';

let api: HostileApi;
beforeAll(async () => {
  api = await startHostileApi();
});
afterAll(() => api.close());

const message = (fields: Record<string, unknown>) => ({
  message: { role: 'assistant', content: null, ...fields },
});

const toolCall = (fields: Record<string, unknown> = {}, fn: Record<string, unknown> = {}) => ({
  id: 'call_1',
  type: 'function',
  function: { name: 'get_weather', arguments: '{"city":"Oslo"}', ...fn },
  ...fields,
});

const call = (stream = false) =>
  createChatCompletion({
    fetch,
    baseURL: api.url,
    apiKey: 'test-key',
    body: {
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
      ...(stream && { stream: true }),
    },
  });

const prefix = () =>
  new RegExp(`^malformed response from the Chat Completions API at ${api.url}: `);

describe('createChatCompletion: a 200 whose body is not a chat completion', () => {
  it.each<[string, HostileHandler, RegExp]>([
    [
      'an HTML gateway page',
      raw('<html><body>Bad Gateway</body></html>', 'text/html'),
      /the body is text, not a JSON object \(a gateway's error page\?\)/,
    ],
    ['JSON null', json('null'), /the body is null, not a JSON object/],
    ['a JSON array', json('[1,2]'), /the body is an array, not a JSON object/],
    [
      'a JSON body cut short (it does not parse)',
      raw('{"choices":[{"message":{"content":"hel', 'application/json'),
      /the body is text, not a JSON object/,
    ],
    [
      'no choices',
      json({ ...completion(), choices: undefined }),
      /choices is missing, not an array/,
    ],
    ['choices as a string', json({ ...completion(), choices: 'x' }), /choices is a string/],
    ['empty choices', json({ ...completion(), choices: [] }), /choices is empty: no answer/],
    [
      'a choice that is null',
      json({ ...completion(), choices: [null] }),
      /choices\[0\] is null, not an object/,
    ],
    [
      'a choice without a message',
      json(completion({ message: undefined })),
      /choices\[0\]\.message is missing/,
    ],
    [
      'the wrong role',
      json(completion(message({ role: 'user', content: 'x' }))),
      /choices\[0\]\.message\.role is 'user', not 'assistant'/,
    ],
    [
      'content as a number',
      json(completion(message({ content: 42 }))),
      /choices\[0\]\.message\.content is 42, not a string or null/,
    ],
    [
      'content as an array',
      json(completion(message({ content: [{ type: 'text', text: 'x' }] }))),
      /choices\[0\]\.message\.content is an array, not a string or null/,
    ],
    [
      'tool_calls as a string',
      json(completion({ ...message({ tool_calls: 'get_weather' }), finish_reason: 'tool_calls' })),
      /choices\[0\]\.message\.tool_calls is a string, not an array/,
    ],
    [
      'a tool call whose id is a number',
      json(completion({ ...message({ tool_calls: [toolCall({ id: 7 })] }) })),
      /choices\[0\]\.message\.tool_calls\[0\]\.id is 7, not a string/,
    ],
    [
      'a tool call of another type',
      json(completion(message({ tool_calls: [toolCall({ type: 'custom' })] }))),
      /tool_calls\[0\]\.type is 'custom', not 'function'/,
    ],
    [
      'a tool call without a function',
      json(completion(message({ tool_calls: [toolCall({ function: undefined })] }))),
      /tool_calls\[0\]\.function is missing/,
    ],
    [
      'arguments as a number',
      json(completion(message({ tool_calls: [toolCall({}, { arguments: 42 })] }))),
      /choices\[0\]\.message\.tool_calls\[0\]\.function\.arguments is 42, not a string/,
    ],
    [
      'arguments as an object',
      json(completion(message({ tool_calls: [toolCall({}, { arguments: { city: 'Oslo' } })] }))),
      /tool_calls\[0\]\.function\.arguments is an object, not a string/,
    ],
    [
      'a function without a name',
      json(completion(message({ tool_calls: [toolCall({}, { name: null })] }))),
      /tool_calls\[0\]\.function\.name is null, not a string/,
    ],
    [
      'two tool calls with one id',
      json(completion(message({ tool_calls: [toolCall(), toolCall({}, { name: 'get_time' })] }))),
      /choices\[0\]\.message\.tool_calls\[1\]\.id 'call_1' is the id of choices\[0\]\.message\.tool_calls\[0\] too: each tool call needs its own id/,
    ],
    [
      'an unknown finish_reason',
      json(completion({ finish_reason: 'eos_token' })),
      /choices\[0\]\.finish_reason is 'eos_token', not one of stop, length, tool_calls, content_filter, function_call/,
    ],
    [
      'a finish_reason of null (the answer is not finished)',
      json(completion({ finish_reason: null })),
      /choices\[0\]\.finish_reason is null/,
    ],
    [
      'usage counts as strings',
      json(completion({}, { usage: { prompt_tokens: '30000', completion_tokens: 1 } })),
      /usage\.prompt_tokens is a string, not a whole number >= 0/,
    ],
    [
      'a negative usage count',
      json(completion({}, { usage: { prompt_tokens: 1, completion_tokens: -5 } })),
      /usage\.completion_tokens is -5, not a whole number >= 0/,
    ],
    [
      'a fractional usage count',
      json(completion({}, { usage: { prompt_tokens: 1.5, completion_tokens: 1 } })),
      /usage\.prompt_tokens is 1\.5/,
    ],
    [
      'cached tokens as a string',
      json(
        completion(
          {},
          {
            usage: {
              prompt_tokens: 10,
              completion_tokens: 1,
              prompt_tokens_details: { cached_tokens: '9' },
            },
          },
        ),
      ),
      /usage\.prompt_tokens_details\.cached_tokens is a string/,
    ],
    [
      'more cached tokens than prompt tokens',
      json(
        completion(
          {},
          {
            usage: {
              prompt_tokens: 10,
              completion_tokens: 1,
              prompt_tokens_details: { cached_tokens: 20 },
            },
          },
        ),
      ),
      /usage\.prompt_tokens_details\.cached_tokens \(20\) is more than usage\.prompt_tokens \(10\)/,
    ],
    ['usage as text', json(completion({}, { usage: 'lots' })), /usage is a string, not an object/],
  ])('refuses %s as a malformed response naming what is wrong', async (_name, handler, detail) => {
    api.script(handler);
    const error = await failure(call());
    expect(error.kind).toBe('malformed_response');
    expect(error.message).toMatch(prefix());
    expect(error.message).toMatch(detail);
    expect(error.message).not.toMatch(/Cannot read properties|undefined \(reading/);
  });

  it('accepts extra fields, content null beside tool calls, null cached counts and no usage', async () => {
    api.script(
      json(
        completion(
          {
            ...message({ tool_calls: [toolCall()], refusal: null, annotations: [] }),
            finish_reason: 'tool_calls',
            logprobs: null,
          },
          {
            usage: {
              prompt_tokens: 10,
              completion_tokens: 1,
              prompt_tokens_details: { cached_tokens: null, audio_tokens: 0 },
            },
            system_fingerprint: 'fp_1',
          },
        ),
      ),
      json({ ...completion(), usage: undefined }),
    );
    const first = await call();
    expect(first.message.tool_calls?.[0]?.function.arguments).toBe('{"city":"Oslo"}');
    expect(first.finishReason).toBe('tool_calls');
    expect(first.usage).toEqual({
      inputTokens: 10,
      outputTokens: 1,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    const second = await call();
    expect(second.message.content).toBe('hello');
    expect(second.usage.inputTokens).toBe(0);
  });
});

describe('createChatCompletion: a stream that is not a chat completion', () => {
  it.each<[string, unknown[], RegExp]>([
    [
      'content as a number in a delta',
      [delta({ role: 'assistant', content: 42 }), ...streamOf().slice(2)],
      /data chunk 1: choices\[0\]\.delta\.content is 42, not a string or null/,
    ],
    [
      'a tool-call index that is not a number',
      [delta({ tool_calls: [{ index: '__proto__', id: 'polluted' }] }), ...streamOf().slice(2)],
      /data chunk 1: choices\[0\]\.delta\.tool_calls\[0\]\.index is '__proto__', not the index of a tool call \(0\)/,
    ],
    [
      'a tool-call index that skips calls',
      [delta({ tool_calls: [{ index: 1_000_000, id: 'call_1' }] }), ...streamOf().slice(2)],
      /data chunk 1: choices\[0\]\.delta\.tool_calls\[0\]\.index is 1000000, not the index of a tool call \(0\)/,
    ],
    [
      'tool-call arguments as an object',
      [
        delta({
          tool_calls: [
            { index: 0, id: 'call_1', function: { name: 'get_weather', arguments: { a: 1 } } },
          ],
        }),
        delta({}, 'tool_calls'),
      ],
      /data chunk 1: choices\[0\]\.delta\.tool_calls\[0\]\.function\.arguments is an object, not a string/,
    ],
    [
      'two streamed tool calls with one id',
      [
        delta({
          tool_calls: [{ index: 0, id: 'call_1', function: { name: 'a', arguments: '{}' } }],
        }),
        delta({
          tool_calls: [{ index: 1, id: 'call_1', function: { name: 'b', arguments: '{}' } }],
        }),
        delta({}, 'tool_calls'),
      ],
      /tool_calls\[1\]\.id 'call_1' is the id of choices\[0\]\.message\.tool_calls\[0\] too/,
    ],
    [
      'usage counts as strings in the last chunk',
      [
        ...streamOf().slice(0, 3),
        { choices: [], usage: { prompt_tokens: '10', completion_tokens: 5 } },
      ],
      /usage\.prompt_tokens is a string, not a whole number >= 0/,
    ],
    [
      'an unknown finish_reason',
      [delta({ content: 'x' }, 'eos_token')],
      /choices\[0\]\.finish_reason is 'eos_token', not one of/,
    ],
    ['no finish_reason at all', [delta({ content: 'x' })], /choices\[0\]\.finish_reason is null/],
    ['data that is not JSON', [delta({ content: 'x' }), '{oops'], /data chunk 2 is not JSON/],
    ['a chunk that is null', ['null'], /data chunk 1 is null, not a JSON object/],
  ])('refuses %s as a malformed response', async (_name, data, detail) => {
    api.script(chunks(data));
    const error = await failure(call(true));
    expect(error.kind).toBe('malformed_response');
    expect(error.message).toMatch(prefix());
    expect(error.message).toMatch(detail);
    expect(([] as unknown as { id?: unknown }).id).toBeUndefined();
  });

  it('calls a stream that ends before [DONE] a malformed response', async () => {
    api.script(chunks(streamOf(), { done: false }));
    const error = await failure(call(true));
    expect(error.kind).toBe('malformed_response');
    expect(error.message).toMatch(/the stream ended before data: \[DONE\]/);
  });

  it('calls an error the stream sent a stream_error naming it, not a malformed answer', async () => {
    api.script(chunks([delta({ content: 'x' }), { error: { message: 'context too long' } }]));
    const error = await failure(call(true));
    expect(error.kind).toBe('stream_error');
    expect(error.message).toBe(
      `the Chat Completions API at ${api.url} sent an error inside its stream: context too long; the server failed mid-answer: check its logs, or the gateway in between`,
    );
  });

  it('folds a complete stream into the same result as a JSON body', async () => {
    api.script(chunks(streamOf('streamed')));
    const result = await call(true);
    expect(result.message).toEqual({ role: 'assistant', content: 'streamed' });
    expect(result.finishReason).toBe('stop');
    expect(result.usage.inputTokens).toBe(10);
  });
});

describe('createChatCompletionsAgent retries as the Messages API path does', () => {
  const context = (clock = createVirtualClock({ start: 0 })) =>
    testAgentContext({ fetch, baseURL: api.url, clock });
  const agent = (stream = false) =>
    createChatCompletionsAgent({ tools: [], maxRetries: 2, ...(stream && { stream }) });

  it.each<[string, HostileHandler]>([
    ['a 200 HTML gateway page', raw('<html>Bad Gateway</html>', 'text/html')],
    [
      'a 200 with usage counts as strings',
      json(completion({}, { usage: { prompt_tokens: '5', completion_tokens: 1 } })),
    ],
    ['a 200 JSON body cut mid-way', cutJson('{"choices":[{"message":')],
    ['a 503', json({ error: { message: 'unavailable' } }, 503)],
    [
      'a 400 marked x-should-retry: true',
      json({ error: { message: 'transient' } }, 400, { 'x-should-retry': 'true' }),
    ],
  ])('retries %s, then answers', async (_name, first) => {
    api.script(first, json(completion({ message: { role: 'assistant', content: 'second' } })));
    const output = await agent()(context());
    expect(output.answer).toBe('second');
    expect(api.requests).toHaveLength(2);
    expect(api.requests[1]).toBe(api.requests[0]);
  });

  it('retries a stream that ended before [DONE], then answers', async () => {
    api.script(chunks(streamOf('partial'), { done: false }), chunks(streamOf('whole')));
    const output = await agent(true)(context());
    expect(output.answer).toBe('whole');
    expect(api.requests).toHaveLength(2);
  });

  it('waits the retry-after-ms the server names, on the run clock', async () => {
    const clock = createVirtualClock({ start: 0 });
    api.script(
      json({ error: { message: 'slow down' } }, 429, { 'retry-after-ms': '1234' }),
      json(completion()),
    );
    expect((await agent()(context(clock))).answer).toBe('hello');
    expect(clock.now()).toBe(1234);
  });

  it('does not retry a 503 marked x-should-retry: false, nor a 400', async () => {
    for (const [status, headers] of [
      [503, { 'x-should-retry': 'false' }],
      [400, {}],
    ] as const) {
      api.script(json({ error: { message: 'no' } }, status, headers), json(completion()));
      const error = await failure(agent()(context()));
      expect(error.status).toBe(status);
      expect(api.requests).toHaveLength(1);
    }
  });

  it('gives up on an answer that is never a chat completion after its retries, naming the problem', async () => {
    api.script(json(completion({ finish_reason: 'eos_token' })));
    const error = await failure(agent()(context()));
    expect(error.kind).toBe('malformed_response');
    expect(error.message).toMatch(/choices\[0\]\.finish_reason is 'eos_token'/);
    expect(api.requests).toHaveLength(3);
  });
});

describe('createChatCompletionsAgent and a tool result JSON cannot carry', () => {
  it('sends the model a tool error instead of crashing the run on a BigInt', async () => {
    const lookup = {
      name: 'get_total',
      parameters: { type: 'object' },
      run: () => ({ total: 10n }) as never,
    };
    api.script(
      json(
        completion({
          ...message({ tool_calls: [toolCall({}, { name: 'get_total', arguments: '{}' })] }),
          finish_reason: 'tool_calls',
        }),
      ),
      json(completion({ message: { role: 'assistant', content: 'The total is unavailable.' } })),
    );
    const output = await createChatCompletionsAgent({ tools: [lookup], maxRetries: 0 })(
      testAgentContext({ fetch, baseURL: api.url, prompt: 'total?' }),
    );
    expect(output.answer).toBe('The total is unavailable.');
    expect(output.toolCalls).toEqual([{ name: 'get_total', input: {}, isError: true }]);
    const sent = JSON.parse(api.requests[1]!).messages.at(-1);
    expect(sent).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: expect.stringMatching(
        /^error: get_total failed: its result cannot be sent as JSON \(a BigInt at \/total\); a tool must return a plain object or array/,
      ),
    });
  });
});

describe('createChatCompletion: the deadline on the whole call', () => {
  it('ends a call whose body never completes at the deadline, naming it and how to change it', async () => {
    api.script(stall);
    const error = await failure(
      createChatCompletion({
        fetch,
        baseURL: api.url,
        apiKey: 'test-key',
        body: { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] },
        timeoutMs: 50,
      }),
    );
    expect(error.kind).toBe('deadline');
    expect(error.message).toBe(
      `no complete answer from the Chat Completions API at ${api.url} within 0.05 s (the deadline covers the whole call, headers and body); raise it with HARNESS_MODEL_TIMEOUT=SECONDS (record: --model-timeout SECONDS; library: createChatCompletionsAgent's timeoutMs)`,
    );
  });

  it('is retried like a dropped connection by the agent, with the deadline the context gives', async () => {
    api.script(stall, json(completion()));
    // Long enough for the second, answered call on a loaded machine (it failed under load at 50 ms).
    const result = await createChatCompletionsAgent({ tools: [], maxRetries: 1 })(
      testAgentContext({ fetch, baseURL: api.url, modelTimeoutMs: 1000 }),
    );
    expect(result.answer).toBe('hello');
    expect(api.requests).toHaveLength(2);
  });

  it('refuses a deadline a timer cannot hold', async () => {
    await expect(
      createChatCompletion({
        fetch,
        baseURL: api.url,
        apiKey: 'test-key',
        body: { model: 'gpt-test', messages: [] },
        timeoutMs: Number.POSITIVE_INFINITY,
      }),
    ).rejects.toThrow(/^timeoutMs Infinity is not a deadline a timer can hold/);
  });
});
