import { describe, expect, it } from 'vitest';
import { respondChat } from './chat-completions.js';
import { defineModelScript } from './model-script.js';

const script = defineModelScript({
  name: 'weather',
  turns: [
    { toolCalls: [{ name: 'get_weather', input: { city: 'Oslo' } }] },
    { text: 'Rain in Oslo.' },
  ],
});
const headers = { authorization: 'Bearer test', 'x-harness-seed': 'W1/v1/1' };
const tools = [{ type: 'function', function: { name: 'get_weather', parameters: {} } }];

describe('respondChat', () => {
  it('answers with the script: a tool call first, then text after the tool result', () => {
    const first = respondChat(
      { model: 'm', messages: [{ role: 'user', content: 'Weather?' }], tools },
      headers,
      { policies: [script], unmatched: 'error' },
    );
    expect(first.status).toBe(200);
    const body = first.body as {
      choices: Array<{
        message: {
          tool_calls: Array<{ id: string; function: { name: string; arguments: string } }>;
        };
        finish_reason: string;
      }>;
    };
    expect(body.choices[0]!.finish_reason).toBe('tool_calls');
    const call = body.choices[0]!.message.tool_calls[0]!;
    expect(call.function).toEqual({ name: 'get_weather', arguments: '{"city":"Oslo"}' });

    const second = respondChat(
      {
        model: 'm',
        messages: [
          { role: 'user', content: 'Weather?' },
          { role: 'assistant', content: null, tool_calls: [call] },
          { role: 'tool', tool_call_id: call.id, content: 'rain' },
        ],
        tools,
        stream: true,
        stream_options: { include_usage: true },
      },
      headers,
      { policies: [script], unmatched: 'error' },
    );
    expect(second.headers['content-type']).toMatch(/text\/event-stream/);
    expect(second.chunks?.at(-1)).toBe('[DONE]');
    const chunks = second.chunks!.slice(0, -1).map((chunk) => JSON.parse(chunk));
    const text = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('');
    expect(text).toBe('Rain in Oslo.');
    expect(chunks.at(-1).usage.prompt_tokens).toBeGreaterThan(0);
  });

  it('refuses a request the script has no turn for with a 400 marked unscripted, when asked to', () => {
    const result = respondChat(
      {
        model: 'm',
        messages: [
          { role: 'user', content: 'Weather?' },
          { role: 'assistant', content: 'one' },
          { role: 'user', content: 'more' },
          { role: 'assistant', content: 'two' },
          { role: 'user', content: 'more' },
        ],
      },
      headers,
      { policies: [script], unmatched: 'error' },
    );
    expect(result.status).toBe(400);
    expect(result.headers['x-harness-unscripted']).toBe('1');
    expect(JSON.stringify(result.body)).toContain('no model script or policy answers request 3');
  });

  it('rejects a request without a key or without messages, like the API', () => {
    expect(respondChat({ model: 'm', messages: [] }, {}).status).toBe(401);
    expect(respondChat({ model: 'm', messages: [] }, headers).status).toBe(400);
  });
});

describe('defineModelScript (function form)', () => {
  it('is seeded per trial: the same seed gives the same turn, and the function sees tool results', () => {
    const seen: string[] = [];
    const seeded = defineModelScript({
      respond: (request, random) => {
        seen.push(request.seed);
        return { text: `${request.prompt} ${random.uniform('draw').toFixed(6)}` };
      },
    });
    const ask = (seed: string) =>
      JSON.stringify(
        respondChat(
          { model: 'm', messages: [{ role: 'user', content: 'Hi' }] },
          { ...headers, 'x-harness-seed': seed },
          { policies: [seeded], unmatched: 'error' },
        ).body,
      );
    expect(ask('T/v/1')).toBe(ask('T/v/1'));
    expect(ask('T/v/1')).not.toBe(ask('T/v/2'));
    expect(seen).toContain('T/v/2');
  });

  it('runs the user function once per request (matching and answering share its answer)', () => {
    let calls = 0;
    const counted = defineModelScript({
      respond: () => {
        calls += 1;
        return { text: 'once' };
      },
    });
    respondChat({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }, headers, {
      policies: [counted],
      unmatched: 'error',
    });
    expect(calls).toBe(1);
  });

  it('reads content given as parts: the text parts, in order; images and odd parts are skipped', () => {
    const seen: Array<{ prompt: string; system: string }> = [];
    const script = defineModelScript({
      respond: (request) => {
        seen.push({ prompt: request.prompt, system: request.system });
        return { text: 'ok' };
      },
    });
    respondChat(
      {
        model: 'm',
        messages: [
          { role: 'system', content: [{ type: 'text', text: 'You answer briefly.' }] },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Where is order 42?' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
              null,
              { type: 'text', text: 42 },
              { type: 'text', text: 'It was paid by card.' },
            ],
          },
        ],
      },
      headers,
      { policies: [script], unmatched: 'error' },
    );
    expect(seen).toEqual([
      { prompt: 'Where is order 42?\nIt was paid by card.', system: 'You answer briefly.' },
    ]);
  });
});
