import { describe, expect, it } from 'vitest';
import { foldResponsesStream } from '../model-api/responses-stream.js';
import { defineModelScript } from './model-script.js';
import { respondResponses } from './responses.js';
import { startSimulator } from './server.js';

const script = defineModelScript({
  respond: (request) =>
    request.toolResults.length === 0
      ? { text: 'Let me look.', toolCalls: [{ name: 'get_weather', input: { city: 'Oslo' } }] }
      : { text: `${request.system}: ${request.toolResults[0]?.result?.text}` },
});
const headers = { authorization: 'Bearer x', 'x-harness-seed': 'W1/v1/1' };
const options = { policies: [script], unmatched: 'error' as const };
const first = {
  model: 'gpt-test',
  instructions: 'Weather desk',
  input: [{ role: 'user', content: [{ type: 'input_text', text: 'Weather in Oslo?' }] }],
  tools: [{ type: 'function', name: 'get_weather', parameters: {} }],
};

describe('respondResponses', () => {
  it('answers a model script with a message and a function call, then reads the call output back', () => {
    const items = new Map<string, Record<string, unknown>>();
    const answer = respondResponses(first, headers, { ...options, items });
    expect(answer.status).toBe(200);
    const output = (answer.body as { output: Array<Record<string, unknown>> }).output;
    expect(output.map((item) => item.type)).toEqual(['message', 'function_call']);
    const call = output[1]!;
    expect(JSON.parse(call.arguments as string)).toEqual({ city: 'Oslo' });
    // As the Vercel AI SDK sends it back: references to the stored items, then the output.
    const second = {
      ...first,
      input: [
        ...first.input,
        ...output.map((item) => ({ type: 'item_reference', id: item.id })),
        { type: 'function_call_output', call_id: call.call_id, output: '4 °C, rain' },
      ],
    };
    const reply = respondResponses(second, headers, { ...options, items });
    const text = (reply.body as { output: Array<{ content: Array<{ text: string }> }> }).output[0];
    expect(text?.content[0]?.text).toBe('Weather desk: 4 °C, rain');
  });

  it('refuses a reference to an item it never answered with, and a request without a key', () => {
    const unknown = respondResponses(
      { ...first, input: [{ type: 'item_reference', id: 'msg_nope' }] },
      headers,
      options,
    );
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain("Item with id 'msg_nope' not found.");
    expect(respondResponses(first, {}, options).status).toBe(401);
  });

  it('streams the events a client folds to the same response as the JSON answer', () => {
    const json = respondResponses(first, headers, options);
    const streamed = respondResponses({ ...first, stream: true }, headers, options);
    const events = (streamed.events ?? []).map((data) => ({ event: String(data.type), data }));
    const fold = foldResponsesStream(events);
    expect(fold.problem).toBeUndefined();
    expect(fold.response).toEqual(json.body);
    expect(fold.output).toEqual((json.body as { output: unknown[] }).output);
  });

  it('is served on POST /v1/responses', async () => {
    const simulator = await startSimulator({ policies: [script], unmatched: 'error' });
    try {
      const response = await fetch(`${simulator.url}/v1/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(first),
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { object: string }).object).toBe('response');
    } finally {
      await simulator.close();
    }
  });
});
