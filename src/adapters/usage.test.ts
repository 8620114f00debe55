import { describe, expect, it } from 'vitest';
import { ModelApiError } from '../core/errors.js';
import { anthropicUsage } from '../model-api/token-usage.js';
import { readStream } from './chat-completions-client.js';
import { chatStreamText } from './testing/chat-answers.js';
import { chatCompletionsUsage } from './usage.js';

describe('usage mapping', () => {
  it('moves cached prompt tokens of Chat Completions to cache reads', () => {
    expect(
      chatCompletionsUsage({
        prompt_tokens: 1200,
        completion_tokens: 80,
        prompt_tokens_details: { cached_tokens: 1000 },
      }),
    ).toEqual({ inputTokens: 200, outputTokens: 80, cacheReadTokens: 1000, cacheWriteTokens: 0 });
  });

  // A gateway's or a hand-written server's usage: text, negative or fractional counts would
  // be added to the token tables (or subtract from them) as they came.
  it('counts only whole token numbers from 0 up, as the runtime does', () => {
    expect(
      chatCompletionsUsage({
        prompt_tokens: '1200',
        completion_tokens: -80,
        prompt_tokens_details: { cached_tokens: 2.5 },
      }),
    ).toEqual({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(
      anthropicUsage({
        input_tokens: -10,
        output_tokens: 1e300,
        cache_read_input_tokens: '7',
        cache_creation_input_tokens: 3.5,
      }),
    ).toEqual({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  it('keeps the Messages API fields as they are', () => {
    expect(
      anthropicUsage({
        input_tokens: 10,
        output_tokens: 5,
        cache_read_input_tokens: 7,
        cache_creation_input_tokens: 3,
      }),
    ).toEqual({ inputTokens: 10, outputTokens: 5, cacheReadTokens: 7, cacheWriteTokens: 3 });
  });
});

describe('readStream', () => {
  it('folds content and tool-call deltas into one message, with the usage chunk', () => {
    const lines = [
      { choices: [{ index: 0, delta: { role: 'assistant', content: 'Let me ' } }] },
      { choices: [{ index: 0, delta: { content: 'check.' } }] },
      {
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [
                { index: 0, id: 'call_1', function: { name: 'get_', arguments: '{"ci' } },
              ],
            },
          },
        ],
      },
      {
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [{ index: 0, function: { name: 'weather', arguments: 'ty":"Oslo"}' } }],
            },
          },
        ],
      },
      { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
      { choices: [], usage: { prompt_tokens: 50, completion_tokens: 9 } },
    ];
    const result = readStream(chatStreamText(lines), 'http://127.0.0.1:8000/v1');
    expect(result.message).toEqual({
      role: 'assistant',
      content: 'Let me check.',
      tool_calls: [
        {
          id: 'call_1',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
        },
      ],
    });
    expect(result.finishReason).toBe('tool_calls');
    expect(result.usage.inputTokens).toBe(50);
  });
});

describe('readStream refuses a broken stream with a ModelApiError', () => {
  const chunk = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
  const hello = chunk({ choices: [{ index: 0, delta: { content: 'Hello' } }] });
  it.each([
    [
      'an error payload in the stream',
      `${hello}${chunk({ error: { message: 'overloaded' } })}data: [DONE]\n\n`,
      /sent an error inside its stream: overloaded; /,
    ],
    ['a stream cut off before [DONE]', hello, /ended before data: \[DONE\]/],
    ['data that is not JSON', `${hello}data: {oops\n\ndata: [DONE]\n\n`, /not JSON/],
  ])('%s', (_, text, message) => {
    expect(() => readStream(text, 'http://127.0.0.1:8000/v1')).toThrow(ModelApiError);
    expect(() => readStream(text, 'http://127.0.0.1:8000/v1')).toThrow(message);
  });
});
