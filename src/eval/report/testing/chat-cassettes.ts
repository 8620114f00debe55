import type { Cassette, Exchange, SseEvent } from '../../../replay/cassette.js';

/** Test double: a Chat Completions cassette of these exchanges (`/chat/completions`, as the adapter records). */
export function chatCassette(exchanges: Exchange[]): Cassette {
  return {
    version: 1,
    meta: {
      suite: 'weather',
      task: 'W1',
      variant: 'v1',
      trial: 1,
      recordedAt: '2026-01-01T00:00:00Z',
      now: '2026-01-01T00:00:00Z',
      model: 'gpt-test',
      sdkVersion: '1',
      source: 'simulator',
      host: '127.0.0.1',
    },
    exchanges,
  };
}

/** One call: the request's messages and a JSON answer body, or (an array) the answer's SSE data chunks. */
export function chatExchange(
  messages: unknown[],
  answer: unknown,
  options: { status?: number; latencyMs?: number } = {},
): Exchange {
  const stream = Array.isArray(answer);
  const response = stream
    ? {
        status: options.status ?? 200,
        headers: {},
        events: answer.map((data): SseEvent => ({ event: 'message', data })),
      }
    : { status: options.status ?? 200, headers: {}, body: answer };
  return {
    request: {
      method: 'POST',
      path: '/chat/completions',
      headers: { 'content-type': 'application/json' },
      body: { model: 'gpt-test', messages, ...(stream && { stream: true }) },
    },
    response,
    latencyMs: options.latencyMs ?? 100,
  };
}

/** A JSON answer: the assistant message, its finish reason and usage. */
export function chatAnswer(
  message: Record<string, unknown>,
  finishReason = 'stop',
  usage: unknown = { prompt_tokens: 50, completion_tokens: 10 },
) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    choices: [
      { index: 0, message: { role: 'assistant', ...message }, finish_reason: finishReason },
    ],
    ...(usage !== undefined && { usage }),
  };
}

/** One `chat.completion.chunk` with this delta (and finish reason). */
export function chatChunk(delta: Record<string, unknown>, finishReason: string | null = null) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

export const SYSTEM = { role: 'system', content: 'You report the weather.' };
export const USER = { role: 'user', content: 'What is the weather in Oslo?' };
export const WEATHER_CALL = {
  id: 'call_abc',
  type: 'function',
  function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
};
export const WEATHER_RESULT = {
  role: 'tool',
  tool_call_id: 'call_abc',
  content: 'Oslo: 4 °C, rain',
};
export const ANSWER = 'It is 4 °C and raining in Oslo.';

/** The README's weather run: a tool call, its result, then the answer; JSON answers. */
export function weatherCassette(): Cassette {
  const called = { role: 'assistant', content: null, tool_calls: [WEATHER_CALL] };
  return chatCassette([
    chatExchange(
      [SYSTEM, USER],
      chatAnswer({ content: null, tool_calls: [WEATHER_CALL] }, 'tool_calls', {
        prompt_tokens: 87,
        completion_tokens: 12,
        prompt_tokens_details: { cached_tokens: 20 },
      }),
      { latencyMs: 181 },
    ),
    chatExchange([SYSTEM, USER, called, WEATHER_RESULT], chatAnswer({ content: ANSWER })),
  ]);
}

/** The same run streamed: content and tool-call deltas (arguments in pieces), usage last, `[DONE]`. */
export function streamedWeatherCassette(): Cassette {
  const called = { role: 'assistant', content: null, tool_calls: [WEATHER_CALL] };
  const usage = {
    id: 'chatcmpl-1',
    choices: [],
    usage: { prompt_tokens: 87, completion_tokens: 12 },
  };
  return chatCassette([
    chatExchange(
      [SYSTEM, USER],
      [
        chatChunk({ role: 'assistant', content: '' }),
        chatChunk({
          tool_calls: [
            {
              index: 0,
              id: 'call_abc',
              type: 'function',
              function: { name: 'get_weather', arguments: '' },
            },
          ],
        }),
        chatChunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
        chatChunk({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }),
        chatChunk({}, 'tool_calls'),
        usage,
        '[DONE]',
      ],
    ),
    chatExchange(
      [SYSTEM, USER, called, WEATHER_RESULT],
      [
        chatChunk({ role: 'assistant', content: 'It is 4 °C ' }),
        chatChunk({ content: 'and raining in Oslo.' }),
        chatChunk({}, 'stop'),
        usage,
        '[DONE]',
      ],
    ),
  ]);
}
