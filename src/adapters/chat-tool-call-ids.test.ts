import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type HostileApi,
  type HostileHandler,
  json,
  startHostileApi,
} from '../runtime/testing/hostile-api.js';
import { createChatCompletion, readStream } from './chat-completions-client.js';
import { chatStreamText, completion } from './testing/chat-answers.js';

/**
 * Some OpenAI-compatible servers (sglang, some GLM and StepFun streams) send tool calls without
 * an id. Each gets one from its position, so every tool message can answer its call, and the
 * same answer always gets the same ids (a recorded cassette replays to the same requests).
 */

const baseURL = 'http://127.0.0.1:8000/v1';

const streamOfCalls = (parts: Array<Record<string, unknown>>) => {
  const lines = [
    { choices: [{ index: 0, delta: { role: 'assistant', content: null } }] },
    ...parts.map((part) => ({ choices: [{ index: 0, delta: { tool_calls: [part] } }] })),
    { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
  ];
  return chatStreamText(lines);
};

const part = (index: number, name: string, id?: string) => ({
  index,
  ...(id !== undefined && { id }),
  type: 'function',
  function: { name, arguments: '{}' },
});

const ids = (message: { tool_calls?: Array<{ id: string }> }) =>
  message.tool_calls?.map((call) => call.id);

describe('readStream: tool calls streamed without an id', () => {
  it('gives two id-less calls distinct ids from their index, the same on every read', () => {
    const text = streamOfCalls([part(0, 'get_weather'), part(1, 'get_time')]);
    const first = readStream(text, baseURL);
    expect(ids(first.message)).toEqual(['call_0', 'call_1']);
    expect(ids(readStream(text, baseURL).message)).toEqual(['call_0', 'call_1']);
    expect(first.message.tool_calls?.map((call) => call.function.name)).toEqual([
      'get_weather',
      'get_time',
    ]);
  });

  it('gives an id-less call an id no real call of the message has', () => {
    const text = streamOfCalls([part(0, 'get_weather'), part(1, 'get_time', 'call_0')]);
    const [made, real] = ids(readStream(text, baseURL).message) ?? [];
    expect(real).toBe('call_0');
    expect(made).not.toBe('call_0');
    expect(made).toMatch(/^call_0_\w+$/);
  });

  it('still refuses two streamed calls with one real id, naming it', () => {
    const text = streamOfCalls([part(0, 'get_weather', 'call_a'), part(1, 'get_time', 'call_a')]);
    expect(() => readStream(text, baseURL)).toThrow(
      /tool_calls\[1\]\.id 'call_a' is the id of choices\[0\]\.message\.tool_calls\[0\] too/,
    );
  });
});

describe('createChatCompletion: a JSON answer whose tool calls have no id', () => {
  let api: HostileApi;
  beforeAll(async () => {
    api = await startHostileApi();
  });
  afterAll(() => api.close());

  it('gives them ids as a stream does (missing, null or empty)', async () => {
    const calls = [undefined, null, ''].map((id, index) => ({
      ...(id !== undefined && { id }),
      type: 'function',
      function: { name: `tool_${index}`, arguments: '{}' },
    }));
    api.script(
      json(
        completion({
          message: { role: 'assistant', content: null, tool_calls: calls },
          finish_reason: 'tool_calls',
        }),
      ),
    );
    const result = await createChatCompletion({
      fetch,
      baseURL: api.url,
      apiKey: 'test-key',
      body: { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(ids(result.message)).toEqual(['call_0', 'call_1', 'call_2']);
  });
});

describe('createChatCompletion: id-less tool calls in a later turn', () => {
  let api: HostileApi;
  beforeAll(async () => {
    api = await startHostileApi();
  });
  afterAll(() => api.close());

  const idLess = (name: string) => ({ type: 'function', function: { name, arguments: '{}' } });
  const answered = (id: string) => [
    {
      role: 'assistant' as const,
      content: null,
      tool_calls: [
        { id, type: 'function' as const, function: { name: 'get_weather', arguments: '{}' } },
      ],
    },
    { role: 'tool' as const, tool_call_id: id, content: 'rain' },
  ];

  it.each([false, true])(
    'gives them ids no call of the conversation has (stream: %s), the same on every read',
    async (stream) => {
      const handler = (): HostileHandler =>
        stream
          ? (response) => {
              response.writeHead(200, { 'content-type': 'text/event-stream' });
              response.end(streamOfCalls([part(0, 'get_time'), part(1, 'get_date')]));
            }
          : json(
              completion({
                message: {
                  role: 'assistant',
                  content: null,
                  tool_calls: [idLess('get_time'), idLess('get_date')],
                },
                finish_reason: 'tool_calls',
              }),
            );
      const messages = [
        { role: 'user' as const, content: 'hi' },
        ...answered('call_0'),
        // A real id of an earlier turn that the count would otherwise give.
        ...answered('call_2'),
      ];
      const call = () =>
        createChatCompletion({
          fetch,
          baseURL: api.url,
          apiKey: 'test-key',
          body: { model: 'gpt-test', messages, ...(stream && { stream }) },
        });
      api.script(handler(), handler());
      const first = ids((await call()).message);
      expect(first).toHaveLength(2);
      expect(first).not.toContain('call_0');
      expect(first).not.toContain('call_2');
      expect(new Set(first).size).toBe(2);
      expect(ids((await call()).message)).toEqual(first);
    },
  );
});
