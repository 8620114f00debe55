import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { messageProblem } from './message-check.js';
import { foldMessagesStream } from './messages-stream.js';
import { type SseEvent, sseStream } from './sse.js';

/** An event named by its data's type, as the Messages API sends it. */
const event = (data: Record<string, unknown>, name = String(data.type)): SseEvent => ({
  event: name,
  data,
});

const start = event({
  type: 'message_start',
  message: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-test-1',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 5, output_tokens: 1 },
  },
});
const textStart = (index = 0, block: Record<string, unknown> = { type: 'text', text: '' }) =>
  event({ type: 'content_block_start', index, content_block: block });
const textDelta = (text: string, index: unknown = 0) =>
  event({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
const end = [
  event({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }),
  event({ type: 'message_stop' }),
];

/** Does the SDK, reading these events, fail or hand over a message the client refuses (model-client.ts)? */
async function sdkRefuses(events: readonly SseEvent[]): Promise<boolean> {
  const client = new Anthropic({
    apiKey: 'test-key',
    baseURL: 'http://127.0.0.1:9',
    maxRetries: 0,
    fetch: async () =>
      new Response(sseStream(events), { headers: { 'content-type': 'text/event-stream' } }),
  });
  const request = {
    model: 'm',
    max_tokens: 1,
    messages: [{ role: 'user' as const, content: 'hi' }],
  };
  try {
    const message = await client.messages.stream(request).finalMessage();
    return messageProblem(message) !== undefined;
  } catch {
    return true;
  }
}

describe('foldMessagesStream', () => {
  it.each<[string, SseEvent[]]>([
    ['a whole stream', [start, textStart(), textDelta('hi'), ...end]],
    [
      'pings and a data-only event in between',
      [
        start,
        { event: 'ping', data: {} },
        { event: 'message', data: { type: 'message_stop' } },
        textStart(),
        ...end,
      ],
    ],
    [
      'an overloaded_error event',
      [start, { event: 'error', data: { type: 'error', error: { type: 'overloaded_error' } } }],
    ],
    ['no message_stop', [start, textStart(), end[0]!]],
    ['two message_starts', [start, start, ...end]],
    [
      'a message_start without a message',
      [event({ type: 'message_start', message: null }), ...end],
    ],
    ['a text delta before any block', [start, textDelta('hi'), ...end]],
    [
      'an unknown delta before any block',
      [
        start,
        event({ type: 'content_block_delta', index: 0, delta: { type: 'later_delta' } }),
        ...end,
      ],
    ],
    [
      'a content_block_delta without a delta',
      [start, textStart(), event({ type: 'content_block_delta', index: 0 }), ...end],
    ],
    [
      'a message_delta without usage',
      [
        start,
        event({ type: 'message_delta', delta: { stop_reason: 'end_turn' } }),
        event({ type: 'message_stop' }),
      ],
    ],
    [
      'usage strings in message_delta',
      [
        start,
        event({
          type: 'message_delta',
          delta: { stop_reason: 'end_turn' },
          usage: { output_tokens: '2' },
        }),
        event({ type: 'message_stop' }),
      ],
    ],
    [
      'an event whose data is not JSON',
      [start, textStart(), { event: 'content_block_stop', data: 'garbage' }, ...end],
    ],
    [
      'an event whose data is null',
      [start, textStart(), { event: 'content_block_stop', data: null }, ...end],
    ],
    [
      'an event read by its data, not its name',
      [
        start,
        textStart(),
        event(end[0]!.data as Record<string, unknown>, 'content_block_stop'),
        end[1]!,
      ],
    ],
    [
      'a block without text given text at index -1',
      [start, textStart(0, { type: 'text' }), textDelta('hi', -1), ...end],
    ],
    [
      'a block without text given text at index "0"',
      [start, textStart(0, { type: 'text' }), textDelta('hi', '0'), ...end],
    ],
    ['a block started at another index', [start, textStart(5), textDelta('hi', 5), ...end]],
    [
      'a block that is not an object',
      [start, event({ type: 'content_block_start', index: 0, content_block: null }), ...end],
    ],
  ])('refuses a stream exactly when the SDK does (%s)', async (_name, events) => {
    const refused = foldMessagesStream(events).problem !== undefined;
    expect(refused).toBe(await sdkRefuses(events));
  });

  it('places each block where the SDK does, by arrival, and each delta on its index, naming a misplaced block', () => {
    const fold = foldMessagesStream([
      start,
      textStart(0, { type: 'thinking', thinking: '' }),
      event({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'thinking_delta', thinking: 'let me ' },
      }),
      event({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'thinking_delta', thinking: 'see' },
      }),
      textStart(1),
      textDelta('Hel', 1),
      textDelta('lo', 1),
      textStart(7, { type: 'tool_use', id: 'tu1', name: 'get_order', input: {} }),
      event({
        type: 'content_block_delta',
        index: 2,
        delta: { type: 'input_json_delta', partial_json: '{"order_id":' },
      }),
      event({
        type: 'content_block_delta',
        index: 2,
        delta: { type: 'input_json_delta', partial_json: '"ORD1001"}' },
      }),
      ...end,
    ]);
    expect(fold.problem).toBeUndefined();
    expect(fold.message?.content).toEqual([
      { type: 'thinking', thinking: 'let me see' },
      { type: 'text', text: 'Hello' },
      { type: 'tool_use', id: 'tu1', name: 'get_order', input: {} },
    ]);
    expect(fold.inputJson[2]).toBe('{"order_id":"ORD1001"}');
    expect(fold.message?.usage).toEqual({ input_tokens: 5, output_tokens: 2 });
    expect(fold.message?.stop_reason).toBe('end_turn');
    expect(fold.notes).toEqual(['content_block_start index 7 is not the next block (2)']);
  });

  it('leaves the events it folds as they were', () => {
    const events = [start, textStart(), textDelta('hi'), ...end];
    const before = structuredClone(events);
    foldMessagesStream(events);
    expect(events).toEqual(before);
  });

  it('joins the streamed text of every block start and delta, wherever the client places them', () => {
    const { streamedText } = foldMessagesStream([
      textDelta('before message_start; ', 0),
      start,
      textStart(0, { type: 'text', text: 'sk-ant-' }),
      textDelta('api03', 0),
      event({
        type: 'content_block_delta',
        index: 3,
        delta: { type: 'text_delta', text: 'never started' },
      }),
      event({
        type: 'content_block_delta',
        index: 'x',
        delta: { type: 'other', note: 'odd index' },
      }),
      ...end,
      textDelta('; after message_stop', 0),
    ]);
    expect(streamedText).toEqual(
      new Map([
        ['content block 0 text', 'before message_start; sk-ant-api03; after message_stop'],
        ['message_start message.id', 'msg_1'],
        ['message_start message.type', 'message'],
        ['message_start message.role', 'assistant'],
        ['message_start message.model', 'claude-test-1'],
        ['content block 3 text', 'never started'],
        ['content block ? note', 'odd index'],
        ['message_delta delta.stop_reason', 'end_turn'],
      ]),
    );
  });
});
