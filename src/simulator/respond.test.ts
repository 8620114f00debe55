import type { Anthropic } from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { refundDeskPolicy } from '../refund-desk/simulator-policy.js';
import { defaultPolicies, type RespondOptions, respond as respondBuiltIn } from './respond.js';
import { REFUND_DESK_TOOLS, upgradedSystem } from './testing/refund-desk.js';

const KEY = { 'x-api-key': 'test' };

/** The simulator as this repository's evals run it: with the refund desk's model registered. */
const respond = (body: unknown, headers: Record<string, string>, options: RespondOptions = {}) =>
  respondBuiltIn(body, headers, { policies: [...defaultPolicies, refundDeskPolicy], ...options });
const PROMPT = "Why hasn't the refund for order ORD1001 arrived yet?";

function request(overrides: Record<string, unknown> = {}) {
  return {
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    system: upgradedSystem(),
    tools: REFUND_DESK_TOOLS,
    messages: [{ role: 'user', content: PROMPT }],
    ...overrides,
  };
}

function message(result: ReturnType<typeof respond>): Anthropic.Message {
  if (result.body.type !== 'message') throw new Error(`expected a message, got ${result.status}`);
  return result.body;
}

function errorOf(result: ReturnType<typeof respond>) {
  if (result.body.type !== 'error') throw new Error('expected an error body');
  return { status: result.status, ...result.body.error };
}

describe('respond', () => {
  it('answers 401 authentication_error without x-api-key or authorization', () => {
    expect(errorOf(respond(request(), {}))).toEqual({
      status: 401,
      type: 'authentication_error',
      message: 'x-api-key header is required',
    });
    expect(respond(request(), { authorization: 'Bearer token' }).status).toBe(200);
  });

  it.each([
    ['model', 'model: Field required'],
    ['max_tokens', 'max_tokens: Field required'],
    ['messages', 'messages: Field required'],
  ])('answers 400 invalid_request_error when %s is missing', (field, text) => {
    const body: Record<string, unknown> = request();
    delete body[field];
    expect(errorOf(respond(body, KEY))).toEqual({
      status: 400,
      type: 'invalid_request_error',
      message: text,
    });
  });

  it('answers 400 for a body that is not an object and for an empty messages list', () => {
    expect(errorOf(respond('hello', KEY)).status).toBe(400);
    expect(errorOf(respond(request({ messages: [] }), KEY)).message).toMatch(
      /at least one message/,
    );
  });

  it('answers 400 when an assistant tool_use has no tool_result in the next user message', () => {
    const toolUse = { type: 'tool_use', id: 'toolu_01abc', name: 'get_order', input: {} };
    const messages = [
      { role: 'user', content: PROMPT },
      { role: 'assistant', content: [toolUse] },
      { role: 'user', content: 'any news?' },
    ];
    const error = errorOf(respond(request({ messages }), KEY));
    expect(error.status).toBe(400);
    expect(error.type).toBe('invalid_request_error');
    expect(error.message).toMatch(/^messages\.2: `tool_use` ids were found without `tool_result`/);
    expect(error.message).toContain('toolu_01abc');
  });

  it('answers 400 for a tool_result whose tool_use is not in the previous message', () => {
    const orphan = { type: 'tool_result', tool_use_id: 'toolu_01zzz', content: '{}' };
    const messages = [
      { role: 'user', content: PROMPT },
      { role: 'assistant', content: 'Let me look.' },
      { role: 'user', content: [orphan] },
    ];
    expect(errorOf(respond(request({ messages }), KEY)).message).toMatch(
      /unexpected `tool_use_id`/,
    );
  });

  it('gives the same response, ids included, to the same request', () => {
    const headers = { ...KEY, 'x-harness-seed': 'T1/upgraded/3' };
    expect(respond(request(), headers)).toEqual(respond(request(), headers));
    expect(respond(request(), KEY)).toEqual(respond(request(), KEY));
  });

  it('returns the Messages API shape with a msg_ id, the echoed model and toolu_ ids', () => {
    const reply = message(respond(request({ model: 'claude-opus-4-5' }), KEY));
    expect(reply).toMatchObject({ type: 'message', role: 'assistant', model: 'claude-opus-4-5' });
    expect(reply.id).toMatch(/^msg_01\w{22}$/);
    expect(reply.stop_reason).toBe('tool_use');
    expect(reply.stop_sequence).toBeNull();
    const tools = reply.content.filter((block) => block.type === 'tool_use');
    expect(tools[0]).toMatchObject({ name: 'get_order', input: { order_id: 'ORD1001' } });
    expect(tools[0]?.id).toMatch(/^toolu_01\w{22}$/);
    expect(reply.usage.service_tier).toBe('standard');
  });

  it('labels its usage as estimated and estimates about four characters a token', () => {
    const body = request();
    const result = respond(body, KEY);
    expect(result.headers['x-harness-simulator']).toBe('estimated-usage');
    const usage = message(result).usage;
    expect(usage.input_tokens).toBe(Math.ceil(JSON.stringify(body).length / 4));
    expect(usage.output_tokens).toBeGreaterThan(5);
    expect(usage.cache_creation_input_tokens).toBe(0);
    expect(usage.cache_read_input_tokens).toBe(0);
  });

  it('models prompt caching: the prefix is written on the first request and read later', () => {
    const system = [{ type: 'text', text: upgradedSystem(), cache_control: { type: 'ephemeral' } }];
    const first = message(respond(request({ system }), KEY));
    const results = first.content
      .filter((block) => block.type === 'tool_use')
      .map((call) => ({ type: 'tool_result', tool_use_id: call.id, content: '{"status":"x"}' }));
    const messages = [
      { role: 'user', content: PROMPT },
      { role: 'assistant', content: first.content },
      { role: 'user', content: results },
    ];
    const second = message(respond(request({ system, messages }), KEY));
    const prefix = first.usage.cache_creation_input_tokens ?? 0;
    expect(prefix).toBeGreaterThan(100);
    expect(first.usage.cache_read_input_tokens).toBe(0);
    expect(second.usage.cache_read_input_tokens).toBe(prefix);
    expect(second.usage.cache_creation_input_tokens).toBe(0);
    const total = Math.ceil(JSON.stringify(request({ system })).length / 4);
    expect(first.usage.input_tokens).toBe(total - prefix);
  });

  // The example agents' models live beside them (src/refund-desk, src/debug-agent) and are
  // registered by this repository's evals: the package's simulator does not know them.
  it('knows only the built-in judge by default: an example agent request gets plain text', () => {
    expect(defaultPolicies.map((policy) => policy.name)).toEqual(['judge']);
    const result = respondBuiltIn(request(), KEY);
    expect(result.headers['x-harness-policy']).toBe('plain-text');
  });

  it('answers in plain text when no policy matches', () => {
    const reply = message(respond(request({ tools: [] }), KEY));
    expect(reply.stop_reason).toBe('end_turn');
    expect(reply.content[0]).toMatchObject({ type: 'text' });
    expect(respond(request({ tools: [] }), KEY).headers['x-harness-policy']).toBe('plain-text');
  });

  it('stops with max_tokens and no tool call when the budget is too small', () => {
    const reply = message(respond(request({ max_tokens: 2 }), KEY));
    expect(reply.stop_reason).toBe('max_tokens');
    expect(reply.content.some((block) => block.type === 'tool_use')).toBe(false);
    expect(reply.usage.output_tokens).toBe(2);
  });

  it('draws a seeded delay inside delayMs, the same for the same request', () => {
    const delays = ['T1/a/1', 'T1/a/2', 'T1/a/3', 'T1/a/4'].map(
      (seed) =>
        respond(request(), { ...KEY, 'x-harness-seed': seed }, { delayMs: [10, 500] }).delayMs,
    );
    expect(delays.every((delay) => delay >= 10 && delay <= 500)).toBe(true);
    expect(new Set(delays).size).toBeGreaterThan(1);
    const again = respond(
      request(),
      { ...KEY, 'x-harness-seed': 'T1/a/1' },
      { delayMs: [10, 500] },
    );
    expect(again.delayMs).toBe(delays[0]);
    expect(respond(request(), KEY).delayMs).toBe(0);
  });

  it('streams the message as SSE events that add up to the JSON body', () => {
    const result = respond(request({ stream: true }), {
      ...KEY,
      'x-harness-seed': 'T1/upgraded/2',
    });
    expect(result.headers['content-type']).toMatch(/^text\/event-stream/);
    const types = result.events?.map((event) => event.type) ?? [];
    expect(types.slice(0, 2)).toEqual(['message_start', 'ping']);
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(types).toContain('content_block_start');
    const deltas = result.events?.filter((event) => event.type === 'content_block_delta') ?? [];
    const json = deltas
      .map((event) => (event.delta.type === 'input_json_delta' ? event.delta.partial_json : ''))
      .join('');
    expect(json).toContain('"order_id":"ORD1001"');
  });
});
