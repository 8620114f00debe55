import { describe, expect, it } from 'vitest';
import {
  ANSWER,
  chatAnswer,
  chatCassette,
  chatChunk,
  chatExchange,
  SYSTEM,
  streamedWeatherCassette,
  USER,
  WEATHER_CALL,
  weatherCassette,
} from '../report/testing/chat-cassettes.js';
import { decodeTranscript, type Transcript } from './transcript.js';

const calls = (transcript: Transcript) =>
  transcript.turns.flatMap((turn) =>
    turn.blocks.flatMap((block) => (block.kind === 'tool' ? [block.call] : [])),
  );

const DONE = '[DONE]';

describe('decodeTranscript of a Chat Completions cassette', () => {
  it('rebuilds the conversation from JSON answers: system, user, tool call and result, answer', () => {
    const transcript = decodeTranscript(weatherCassette());
    expect(transcript.system).toBe('You report the weather.');
    expect(transcript.user).toBe('What is the weather in Oslo?');
    expect(transcript.turns).toEqual([
      {
        step: 1,
        stopReason: 'tool_calls',
        blocks: [
          {
            kind: 'tool',
            call: {
              name: 'get_weather',
              id: 'call_abc',
              input: '{\n  "city": "Oslo"\n}',
              result: 'Oslo: 4 °C, rain',
            },
          },
        ],
        // prompt_tokens include the cached ones: they count as cache reads, as in the token tables.
        tokens: { input: 67, output: 12, cacheRead: 20, cacheWrite: 0 },
        latencyMs: 181,
      },
      {
        step: 2,
        stopReason: 'stop',
        blocks: [{ kind: 'text', text: ANSWER }],
        tokens: { input: 50, output: 10, cacheRead: 0, cacheWrite: 0 },
        latencyMs: 100,
      },
    ]);
    expect(transcript.finalAnswer).toBe(ANSWER);
  });

  it('assembles streamed answers: content and tool-call deltas, usage from the last chunk', () => {
    const transcript = decodeTranscript(streamedWeatherCassette());
    expect(transcript.system).toBe('You report the weather.');
    expect(transcript.user).toBe('What is the weather in Oslo?');
    expect(calls(transcript)).toEqual([
      {
        name: 'get_weather',
        id: 'call_abc',
        input: '{\n  "city": "Oslo"\n}',
        result: 'Oslo: 4 °C, rain',
      },
    ]);
    expect(transcript.turns.map((turn) => turn.stopReason)).toEqual(['tool_calls', 'stop']);
    expect(transcript.turns[0]?.tokens).toEqual({
      input: 87,
      output: 12,
      cacheRead: 0,
      cacheWrite: 0,
    });
    expect(transcript.finalAnswer).toBe(ANSWER);
  });

  it('gives a call sent without an id the id the adapter gave it, so its result is found', () => {
    const idless = { ...WEATHER_CALL, id: undefined };
    const called = {
      role: 'assistant',
      content: null,
      tool_calls: [{ ...WEATHER_CALL, id: 'call_0' }],
    };
    const result = { role: 'tool', tool_call_id: 'call_0', content: 'Oslo: 4 °C, rain' };
    for (const answer of [
      chatAnswer({ content: null, tool_calls: [idless] }, 'tool_calls'),
      [
        chatChunk({ tool_calls: [{ index: 0, function: WEATHER_CALL.function }] }, 'tool_calls'),
        DONE,
      ],
    ]) {
      const transcript = decodeTranscript(
        chatCassette([
          chatExchange([SYSTEM, USER], answer),
          chatExchange([SYSTEM, USER, called, result], chatAnswer({ content: ANSWER })),
        ]),
      );
      expect(calls(transcript)).toEqual([
        {
          name: 'get_weather',
          id: 'call_0',
          input: '{\n  "city": "Oslo"\n}',
          result: 'Oslo: 4 °C, rain',
        },
      ]);
    }
  });

  it('gives each turn its own results when a server reuses a call id in every turn', () => {
    const call = (city: string) => ({
      id: 'call_0',
      type: 'function',
      function: { name: 'get', arguments: JSON.stringify({ city }) },
    });
    const asked = (city: string) => ({
      role: 'assistant',
      content: null,
      tool_calls: [call(city)],
    });
    const result = (text: string) => ({ role: 'tool', tool_call_id: 'call_0', content: text });
    const transcript = decodeTranscript(
      chatCassette([
        chatExchange([SYSTEM, USER], chatAnswer({ tool_calls: [call('A')] }, 'tool_calls')),
        chatExchange(
          [SYSTEM, USER, asked('A'), result('RESULT-A')],
          chatAnswer({ tool_calls: [call('B')] }, 'tool_calls'),
        ),
        chatExchange(
          [SYSTEM, USER, asked('A'), result('RESULT-A'), asked('B'), result('RESULT-B')],
          chatAnswer({ content: 'done' }),
        ),
      ]),
    );
    expect(calls(transcript).map((found) => found.result)).toEqual(['RESULT-A', 'RESULT-B']);
  });

  it('finds the results of a turn past calls of another conversation in between (a summarizer, a sub-agent)', () => {
    const call = (id: string, name: string) => ({
      id,
      type: 'function',
      function: { name, arguments: '{}' },
    });
    const asked = (id: string, name: string) => ({
      role: 'assistant',
      content: null,
      tool_calls: [call(id, name)],
    });
    const result = (id: string, text: string) => ({
      role: 'tool',
      tool_call_id: id,
      content: text,
    });
    const sub = { role: 'user', content: 'look it up' };
    const transcript = decodeTranscript(
      chatCassette([
        chatExchange([SYSTEM, USER], chatAnswer({ tool_calls: [call('c1', 'get')] }, 'tool_calls')),
        chatExchange(
          [SYSTEM, { role: 'user', content: 'summarise' }],
          chatAnswer({ content: 'sum' }),
        ),
        chatExchange(
          [SYSTEM, USER, asked('c1', 'get'), result('c1', 'RESULT-A')],
          chatAnswer({ tool_calls: [call('call_0', 'delegate')] }, 'tool_calls'),
        ),
        // The delegate tool runs a sub-agent on a server that reuses ids: its call_0 is another call.
        chatExchange([sub], chatAnswer({ tool_calls: [call('call_0', 'search')] }, 'tool_calls')),
        chatExchange(
          [sub, asked('call_0', 'search'), result('call_0', 'FOUND')],
          chatAnswer({ content: 'sub answer' }),
        ),
        chatExchange(
          [
            SYSTEM,
            USER,
            asked('c1', 'get'),
            result('c1', 'RESULT-A'),
            asked('call_0', 'delegate'),
            result('call_0', 'sub answer'),
          ],
          chatAnswer({ content: 'done' }),
        ),
      ]),
    );
    expect(calls(transcript).map((found) => [found.name, found.result])).toEqual([
      ['get', 'RESULT-A'],
      ['delegate', 'sub answer'],
      ['search', 'FOUND'],
    ]);
  });

  it('matches calls sent without an id by the ids the adapter gave them, past another conversation', () => {
    const idless = (city: string) => ({
      type: 'function',
      function: { name: 'get', arguments: JSON.stringify({ city }) },
    });
    const asked = (id: string, city: string) => ({
      role: 'assistant',
      content: null,
      tool_calls: [{ id, ...idless(city) }],
    });
    const result = (id: string, text: string) => ({
      role: 'tool',
      tool_call_id: id,
      content: text,
    });
    const other = chatExchange(
      [{ role: 'user', content: 'summarise' }],
      chatAnswer({ content: 's' }),
    );
    const transcript = decodeTranscript(
      chatCassette([
        chatExchange([SYSTEM, USER], chatAnswer({ tool_calls: [idless('A')] }, 'tool_calls')),
        other,
        chatExchange(
          [SYSTEM, USER, asked('call_0', 'A'), result('call_0', 'RESULT-A')],
          chatAnswer({ tool_calls: [idless('B')] }, 'tool_calls'),
        ),
        other,
        chatExchange(
          [
            SYSTEM,
            USER,
            asked('call_0', 'A'),
            result('call_0', 'RESULT-A'),
            asked('call_1', 'B'),
            result('call_1', 'RESULT-B'),
          ],
          chatAnswer({ content: 'done' }),
        ),
      ]),
    );
    expect(calls(transcript).map((found) => found.result)).toEqual(['RESULT-A', 'RESULT-B']);
  });

  it('shows no result for a call whose answer no later request sends back', () => {
    const transcript = decodeTranscript(
      chatCassette([
        chatExchange([SYSTEM, USER], chatAnswer({ tool_calls: [WEATHER_CALL] }, 'tool_calls')),
        chatExchange(
          [SYSTEM, USER, { role: 'tool', tool_call_id: 'call_abc', content: 'orphan' }],
          chatAnswer({ content: ANSWER }),
        ),
      ]),
    );
    expect(calls(transcript).map((found) => found.result)).toEqual([undefined]);
  });

  it('shows arguments that are not JSON as the text the model sent', () => {
    const cut = { ...WEATHER_CALL, function: { name: 'get_weather', arguments: '{"city": "Os' } };
    for (const answer of [
      chatAnswer({ content: null, tool_calls: [cut] }, 'length'),
      [chatChunk({ tool_calls: [{ index: 0, ...cut }] }, 'length'), DONE],
    ]) {
      const transcript = decodeTranscript(chatCassette([chatExchange([USER], answer)]));
      expect(calls(transcript)).toEqual([
        { name: 'get_weather', id: 'call_abc', input: '{"city": "Os' },
      ]);
      expect(transcript.turns[0]?.stopReason).toBe('length');
    }
  });

  it('reads system and user text sent as content parts, under a prefixed path', () => {
    const cassette = chatCassette([
      chatExchange(
        [
          { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
          { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
        ],
        chatAnswer({ content: 'Rain.' }),
      ),
    ]);
    const [exchange] = cassette.exchanges;
    if (exchange) exchange.request.path = '/v1/chat/completions';
    const transcript = decodeTranscript(cassette);
    expect([transcript.system, transcript.user, transcript.finalAnswer]).toEqual([
      'Be brief.',
      'Weather?',
      'Rain.',
    ]);
  });

  it('names a hostile tool-call index in the turn instead of building an array for it', () => {
    for (const index of [1e9, 2 ** 32, 5, -1, 1.5, '__proto__', 'length']) {
      const transcript = decodeTranscript(
        chatCassette([
          chatExchange(
            [USER],
            [
              chatChunk({ tool_calls: [{ index, function: WEATHER_CALL.function }] }, 'tool_calls'),
              DONE,
            ],
          ),
        ]),
      );
      expect(transcript.turns).toHaveLength(1);
      expect(transcript.turns[0]?.blocks).toEqual([]);
      expect(transcript.turns[0]?.error).toMatch(
        /tool_calls\[0\]\.index is .*, not the index of a tool call/,
      );
    }
  });

  it('keeps the trial readable when a hand-edited answer is not a chat completion', () => {
    const answers: Array<[unknown, RegExp]> = [
      [null, /not a chat completion: the body is null/],
      ['<html>bad gateway</html>', /not a chat completion: the body is text/],
      [{ choices: 'x' }, /choices is a string, not an array/],
      [chatAnswer({ content: 42 }), /choices\[0\]\.message\.content is 42/],
      [chatAnswer({ content: null, tool_calls: [{ id: 'c' }] }), /function is missing/],
      [[chatChunk({ content: 'half' })], /the stream ended before data: \[DONE\]/],
      [['not json'], /data chunk 1 is not JSON/],
      [
        [{ error: { message: 'overloaded', type: 'server_error' } }],
        /the stream sent an error \(server_error\): overloaded/,
      ],
    ];
    for (const [answer, reason] of answers) {
      const transcript = decodeTranscript(
        chatCassette([chatExchange([SYSTEM, USER], answer), chatExchange([USER], chatAnswer({}))]),
      );
      expect(transcript.user).toBe('What is the weather in Oslo?');
      expect(transcript.turns).toHaveLength(2);
      expect(transcript.turns[0]?.error).toMatch(reason);
      expect(transcript.turns[0]?.blocks).toEqual([]);
      expect(transcript.turns[0]?.tokens).toEqual({
        input: 0,
        output: 0,
        cacheRead: 0,
        cacheWrite: 0,
      });
    }
  });

  it('shows an error status with what the server said', () => {
    const transcript = decodeTranscript(
      chatCassette([chatExchange([USER], { error: { message: 'rate limited' } }, { status: 429 })]),
    );
    expect(transcript.turns[0]?.error).toBe('HTTP 429: {"message":"rate limited"}');
  });

  it('reads hand-edited requests without throwing: messages that are not objects are skipped', () => {
    const hostileRequests: unknown[] = [
      null,
      'text',
      [null, 7, { role: 'user', content: 42 }],
      [{ role: 'assistant', tool_calls: 'x' }, { role: 'assistant', tool_calls: [null, 3] }, USER],
      [{ role: 'tool', tool_call_id: 'call_abc', content: { nested: true } }, USER],
    ];
    for (const messages of hostileRequests) {
      const exchange = chatExchange(
        [],
        chatAnswer({ content: null, tool_calls: [{ ...WEATHER_CALL, id: null }] }, 'tool_calls'),
      );
      (exchange.request.body as { messages: unknown }).messages = messages;
      const transcript = decodeTranscript(chatCassette([exchange]));
      expect(calls(transcript).map((call) => call.name)).toEqual(['get_weather']);
      expect(transcript.system).toBe('');
    }
    const asked = chatExchange(
      [USER],
      chatAnswer({ content: null, tool_calls: [WEATHER_CALL] }, 'tool_calls'),
    );
    const hostileLater = chatExchange(
      [
        null,
        { role: 'assistant', tool_calls: 'x' },
        { role: 'assistant', tool_calls: [null, { id: 'call_abc', function: null }] },
        { role: 'assistant', tool_calls: [WEATHER_CALL] },
        7,
        { role: 'assistant', tool_calls: [WEATHER_CALL] },
        { role: 'tool', tool_call_id: 'call_abc', content: { nested: true } },
      ],
      chatAnswer({ content: 'ok' }),
    );
    expect(calls(decodeTranscript(chatCassette([asked, hostileLater])))).toEqual([
      { name: 'get_weather', id: 'call_abc', input: '{\n  "city": "Oslo"\n}', result: '' },
    ]);
    const body = chatExchange([], chatAnswer({ content: 'ok' }));
    body.request.body = null;
    expect(decodeTranscript(chatCassette([body])).finalAnswer).toBe('ok');
  });
});
