import { describe, expect, it } from 'vitest';
import type { Cassette } from '../../replay/cassette.js';
import { readCassette } from '../../replay/cassette-file.js';
import { testCassette } from '../../replay/testing/cassettes.js';
import type { TraceEvent } from '../../runtime/trace.js';
import { decodeTranscript } from './transcript.js';

const fixture = (path: string) =>
  readCassette(new URL(`../../../fixtures/${path}`, import.meta.url).pathname);

function toolCall(step: number, tool: string, decision: string, ms: number): TraceEvent {
  return {
    type: 'tool_call',
    step,
    tool,
    input: {},
    decision,
    is_error: decision !== 'allow',
    ms,
    result_chars: 0,
  };
}

/** A Messages API exchange: the request's messages and the answer's content blocks. */
function messagesExchange(messages: unknown[], content: unknown[], stopReason = 'tool_use') {
  return {
    request: { method: 'POST', path: '/v1/messages', headers: {}, body: { system: 's', messages } },
    response: {
      status: 200,
      headers: {},
      body: { role: 'assistant', content, stop_reason: stopReason, usage: { input_tokens: 1 } },
    },
    latencyMs: 1,
  };
}

const GOAL = { role: 'user', content: 'hi' };
const use = (id: string, name: string, city: string) => ({
  type: 'tool_use',
  id,
  name,
  input: { city },
});
const asked = (...uses: unknown[]) => ({ role: 'assistant', content: uses });
const answered = (id: string, text: string) => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: id, content: text }],
});
const resultsOf = (transcript: ReturnType<typeof decodeTranscript>) =>
  transcript.turns.flatMap((turn) =>
    turn.blocks.flatMap((block) => (block.kind === 'tool' ? [block.call.result] : [])),
  );

describe('decodeTranscript', () => {
  it('rebuilds the conversation of a trial from its cassette, with decisions and timings from its trace', async () => {
    const cassette = await fixture('T3/upgraded/trial-1.json');
    const transcript = decodeTranscript(cassette, [
      toolCall(1, 'get_order', 'allow', 0),
      toolCall(2, 'get_payment', 'timeout', 3000),
    ]);
    expect(transcript.user).toBe('Has the refund for order ORD4004 arrived?');
    expect(transcript.system).toContain('AGENTS.md');
    expect(transcript.turns.map((turn) => turn.stopReason)).toContain('end_turn');
    const calls = transcript.turns.flatMap((turn) =>
      turn.blocks.flatMap((block) => (block.kind === 'tool' ? [block.call] : [])),
    );
    expect(calls[0]).toMatchObject({ name: 'get_order', decision: 'allow', ms: 0, isError: false });
    expect(calls[1]).toMatchObject({
      name: 'get_payment',
      decision: 'timeout',
      ms: 3000,
      isError: true,
    });
    expect(calls[1]?.result).toContain('timed out after 3000 ms');
    expect(calls[0]?.input).toContain('"order_id": "ORD4004"');
    expect(transcript.turns[0]?.latencyMs).toBe(cassette.exchanges[0]?.latencyMs);
    expect(transcript.turns[0]?.tokens.input).toBeGreaterThan(0);
    expect(transcript.finalAnswer).not.toBe('');
  });

  it('shows a result as the model saw it, truncation notice included', async () => {
    const transcript = decodeTranscript(await fixture('T4/upgraded/trial-1.json'));
    const results = transcript.turns.flatMap((turn) =>
      turn.blocks.flatMap((block) => (block.kind === 'tool' ? [block.call.result ?? ''] : [])),
    );
    expect(
      results.some((result) => /\[truncated: 2000 of \d+ characters kept\]/.test(result)),
    ).toBe(true);
  });

  it('leaves the decision out when the trace names another tool', async () => {
    const transcript = decodeTranscript(await fixture('T3/upgraded/trial-1.json'), [
      toolCall(1, 'get_payment', 'deny', 5),
    ]);
    const first = transcript.turns[0]?.blocks.find((block) => block.kind === 'tool');
    expect(first?.kind === 'tool' && first.call.decision).toBe(undefined);
  });

  it('assembles streamed responses: text, thinking and tool input', () => {
    const cassette: Cassette = {
      version: 1,
      meta: {
        task: 'T1',
        variant: 'upgraded',
        trial: 1,
        recordedAt: '2026-01-01T00:00:00Z',
        now: '2026-01-01T00:00:00Z',
        model: 'm',
        sdkVersion: '1',
        source: 'live',
        host: 'api',
      },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/v1/messages',
            headers: {},
            body: {
              system: [{ type: 'text', text: 'sys' }],
              messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
            },
          },
          response: {
            status: 200,
            headers: {},
            events: [
              {
                event: 'message_start',
                data: {
                  type: 'message_start',
                  message: { usage: { input_tokens: 7, output_tokens: 1 } },
                },
              },
              {
                event: 'content_block_start',
                data: {
                  type: 'content_block_start',
                  index: 0,
                  content_block: { type: 'thinking', thinking: '' },
                },
              },
              {
                event: 'content_block_delta',
                data: {
                  type: 'content_block_delta',
                  index: 0,
                  delta: { type: 'thinking_delta', thinking: 'let me ' },
                },
              },
              {
                event: 'content_block_delta',
                data: {
                  type: 'content_block_delta',
                  index: 0,
                  delta: { type: 'thinking_delta', thinking: 'see' },
                },
              },
              {
                event: 'content_block_start',
                data: {
                  type: 'content_block_start',
                  index: 1,
                  content_block: { type: 'text', text: '' },
                },
              },
              {
                event: 'content_block_delta',
                data: {
                  type: 'content_block_delta',
                  index: 1,
                  delta: { type: 'text_delta', text: 'Hello' },
                },
              },
              {
                event: 'content_block_start',
                data: {
                  type: 'content_block_start',
                  index: 2,
                  content_block: { type: 'tool_use', id: 'tu1', name: 'get_order', input: {} },
                },
              },
              {
                event: 'content_block_delta',
                data: {
                  type: 'content_block_delta',
                  index: 2,
                  delta: { type: 'input_json_delta', partial_json: '{"order_id":' },
                },
              },
              {
                event: 'content_block_delta',
                data: {
                  type: 'content_block_delta',
                  index: 2,
                  delta: { type: 'input_json_delta', partial_json: '"ORD1001"}' },
                },
              },
              {
                event: 'message_delta',
                data: {
                  type: 'message_delta',
                  delta: { stop_reason: 'tool_use' },
                  usage: { output_tokens: 30 },
                },
              },
            ],
          },
          latencyMs: 42,
        },
      ],
    };
    const [turn] = decodeTranscript(cassette).turns;
    expect(turn?.blocks).toEqual([
      { kind: 'thinking', text: 'let me see' },
      { kind: 'text', text: 'Hello' },
      {
        kind: 'tool',
        call: { name: 'get_order', id: 'tu1', input: '{\n  "order_id": "ORD1001"\n}' },
      },
    ]);
    expect(turn?.tokens).toEqual({ input: 7, output: 30, cacheRead: 0, cacheWrite: 0 });
    expect(turn?.stopReason).toBe('tool_use');
  });
  it('shows a tool input cut off mid-stream (max_tokens) as the text that came, without throwing', () => {
    const event = (data: Record<string, unknown>) => ({ event: String(data.type), data });
    const cassette: Cassette = {
      version: 1,
      meta: {
        task: 'T1',
        variant: 'upgraded',
        trial: 1,
        recordedAt: '2026-01-01T00:00:00Z',
        now: '2026-01-01T00:00:00Z',
        model: 'm',
        sdkVersion: '1',
        source: 'live',
        host: 'api',
      },
      exchanges: [
        {
          request: { method: 'POST', path: '/v1/messages', headers: {}, body: { messages: [] } },
          response: {
            status: 200,
            headers: {},
            events: [
              event({ type: 'message_start', message: { usage: { input_tokens: 7 } } }),
              event({
                type: 'content_block_start',
                index: 0,
                content_block: { type: 'tool_use', id: 'tu1', name: 'get_order', input: {} },
              }),
              event({
                type: 'content_block_delta',
                index: 0,
                delta: { type: 'input_json_delta', partial_json: '{"order_id": "ORD' },
              }),
              event({ type: 'message_delta', delta: { stop_reason: 'max_tokens' } }),
            ],
          },
          latencyMs: 5,
        },
      ],
    };
    const [turn] = decodeTranscript(cassette).turns;
    expect(turn?.blocks).toEqual([
      { kind: 'tool', call: { name: 'get_order', id: 'tu1', input: '{"order_id": "ORD' } },
    ]);
    expect(turn?.stopReason).toBe('max_tokens');
  });

  it('names a hostile block index of a hand-edited stream in the turn, without building an array for it', () => {
    const event = (data: Record<string, unknown>) => ({ event: String(data.type), data });
    for (const index of [2 ** 32 - 2, 1e6, 1, -1, 0.5, '__proto__']) {
      const cassette: Cassette = {
        version: 1,
        meta: {
          task: 'T1',
          variant: 'upgraded',
          trial: 1,
          recordedAt: '2026-01-01T00:00:00Z',
          now: '2026-01-01T00:00:00Z',
          model: 'm',
          sdkVersion: '1',
          source: 'live',
          host: 'api',
        },
        exchanges: [
          {
            request: { method: 'POST', path: '/v1/messages', headers: {}, body: { messages: [] } },
            response: {
              status: 200,
              headers: {},
              events: [
                event({ type: 'message_start', message: { usage: { input_tokens: 7 } } }),
                event({ type: 'content_block_start', index, content_block: { type: 'text' } }),
                event({
                  type: 'content_block_delta',
                  index,
                  delta: { type: 'text_delta', text: 'hi' },
                }),
                event({ type: 'message_delta', delta: { stop_reason: 'end_turn' } }),
              ],
            },
            latencyMs: 5,
          },
        ],
      };
      const [turn] = decodeTranscript(cassette).turns;
      expect(turn?.blocks).toEqual([]);
      expect(turn?.error).toMatch(/content_block_start index .* is not the next block \(0\)/);
    }
  });

  it('skips messages and blocks that are not objects in a hand-edited cassette', async () => {
    const cassette = await fixture('T3/upgraded/trial-1.json');
    const [first] = cassette.exchanges;
    const body = first?.request.body as { messages: unknown[] };
    body.messages.push(null, 7);
    const answer = first?.response as { body: { content: unknown[] } };
    answer.body.content.unshift(null);
    const transcript = decodeTranscript(cassette);
    expect(transcript.user).toBe('Has the refund for order ORD4004 arrived?');
    expect(transcript.turns[0]?.blocks.length).toBeGreaterThan(0);
  });

  it('gives each turn its own results when an id is reused across turns', () => {
    const [a, b] = [use('toolu_0', 'get', 'A'), use('toolu_0', 'get', 'B')];
    const transcript = decodeTranscript(
      testCassette([
        messagesExchange([GOAL], [a]),
        messagesExchange([GOAL, asked(a), answered('toolu_0', 'RESULT-A')], [b]),
        messagesExchange(
          [
            GOAL,
            asked(a),
            answered('toolu_0', 'RESULT-A'),
            asked(b),
            answered('toolu_0', 'RESULT-B'),
          ],
          [{ type: 'text', text: 'done' }],
          'end_turn',
        ),
      ]),
    );
    expect(resultsOf(transcript)).toEqual(['RESULT-A', 'RESULT-B']);
  });

  it('finds the results of a turn past calls of another conversation in between (a summarizer, a sub-agent)', () => {
    const [a, b] = [use('toolu_0', 'get', 'A'), use('toolu_0', 'get', 'B')];
    const search = use('toolu_0', 'search', 'B');
    const sub = { role: 'user', content: 'look B up' };
    const transcript = decodeTranscript(
      testCassette([
        messagesExchange([GOAL], [a]),
        messagesExchange([GOAL, asked(a), answered('toolu_0', 'RESULT-A')], [b]),
        // A sub-agent with its own tool call (the server reuses ids), then a summarizer.
        messagesExchange([sub], [search]),
        messagesExchange([sub, asked(search), answered('toolu_0', 'SUB-RESULT')], [], 'end_turn'),
        messagesExchange([{ role: 'user', content: 'summarise' }], [], 'end_turn'),
        messagesExchange(
          [
            GOAL,
            asked(a),
            answered('toolu_0', 'RESULT-A'),
            asked(b),
            answered('toolu_0', 'RESULT-B'),
          ],
          [{ type: 'text', text: 'done' }],
          'end_turn',
        ),
      ]),
    );
    expect(resultsOf(transcript)).toEqual(['RESULT-A', 'RESULT-B', 'SUB-RESULT']);
  });

  it('shows no result for a call whose answer no later request sends back', () => {
    const [a, b] = [use('toolu_0', 'get', 'A'), use('toolu_0', 'get', 'B')];
    const transcript = decodeTranscript(
      testCassette([
        messagesExchange([GOAL], [a]),
        messagesExchange([GOAL, asked(a), answered('toolu_0', 'RESULT-A')], [b]),
      ]),
    );
    expect(resultsOf(transcript)).toEqual(['RESULT-A', undefined]);
  });

  it('reads hand-edited later requests without throwing: what is not a message or block is skipped', () => {
    const a = use('toolu_1', 'get', 'A');
    const hostile: unknown[] = [
      null,
      7,
      { role: 'assistant', content: 'text' },
      { role: 'assistant', content: [null, { type: 'tool_use', id: { x: 1 }, name: 5 }] },
      asked(a),
      { role: 'user', content: [null, 3, { type: 'tool_result', tool_use_id: 9 }] },
      asked(a),
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [null] }] },
    ];
    const later = messagesExchange([], [], 'end_turn');
    const transcript = decodeTranscript(
      testCassette([
        messagesExchange([GOAL], [a]),
        later,
        messagesExchange(hostile, [], 'end_turn'),
      ]),
    );
    expect(resultsOf(transcript)).toEqual(['']);
    (later.request.body as { messages: unknown }).messages = 'not a list';
    expect(
      resultsOf(decodeTranscript(testCassette([messagesExchange([GOAL], [a]), later]))),
    ).toEqual([undefined]);
  });
});
