import { Anthropic, BadRequestError } from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refundDeskPolicy } from '../refund-desk/simulator-policy.js';
import { type RunningSimulator, startSimulator } from './server.js';
import { REFUND_DESK_TOOLS, refundDeskScript, upgradedSystem } from './testing/refund-desk.js';

const PROMPT = "Why hasn't the refund for order ORD1001 arrived yet?";
const params = {
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  system: upgradedSystem(),
  tools: REFUND_DESK_TOOLS as Anthropic.Tool[],
  messages: [{ role: 'user' as const, content: PROMPT }],
};
const seeded = (seed: string) => ({ headers: { 'x-harness-seed': seed } });

/** What a raw response says: `message`, or `error` with its error type. */
async function kindOf(response: Response): Promise<[number, string]> {
  const body = (await response.json()) as { type: string; error?: { type: string } };
  return [response.status, body.error?.type ?? body.type];
}

describe('startSimulator', () => {
  let simulator: RunningSimulator;
  let client: Anthropic;
  beforeAll(async () => {
    simulator = await startSimulator({ policies: [refundDeskPolicy] });
    client = new Anthropic({ apiKey: 'test', baseURL: simulator.url, maxRetries: 0 });
  });
  afterAll(() => simulator.close());

  it('listens on 127.0.0.1', () => {
    expect(simulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('answers client.messages.create with a message the SDK parses', async () => {
    const message = await client.messages.create(params, seeded('T1/upgraded/1'));
    expect(message.id).toMatch(/^msg_01/);
    expect(message.type).toBe('message');
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content.some((block) => block.type === 'tool_use')).toBe(true);
    expect(message.usage.input_tokens).toBeGreaterThan(0);
  });

  it('streams SSE that stream().finalMessage() assembles into the same message', async () => {
    for (const seed of ['T1/upgraded/1', 'T1/upgraded/2', 'T1/upgraded/3']) {
      const json = await client.messages.create(params, seeded(seed));
      const { parsed_output: _parsed, ...streamed } = await client.messages
        .stream(params, seeded(seed))
        .finalMessage();
      expect(streamed).toEqual(json);
    }
  });

  it('plays a whole conversation through the SDK, tool ids round-tripping', async () => {
    const run = refundDeskScript();
    const messages: Anthropic.MessageParam[] = [...params.messages];
    let message = await client.messages.create({ ...params, messages }, seeded('T1/upgraded/4'));
    while (message.stop_reason === 'tool_use') {
      messages.push({ role: 'assistant', content: message.content });
      const results = message.content.flatMap((block): Anthropic.ToolResultBlockParam[] => {
        if (block.type !== 'tool_use') return [];
        const output = run(block.name, block.input as Record<string, unknown>);
        const text = typeof output === 'string' ? output : output.text;
        return [{ type: 'tool_result', tool_use_id: block.id, content: text }];
      });
      messages.push({ role: 'user', content: results });
      message = await client.messages
        .stream({ ...params, messages }, seeded('T1/upgraded/4'))
        .finalMessage();
    }
    const answer = message.content
      .map((block) => (block.type === 'text' ? block.text : ''))
      .join('');
    expect(message.stop_reason).toBe('end_turn');
    expect(answer).toContain('refund under review');
    expect(messages.length).toBeGreaterThanOrEqual(5);
  });

  it('gives byte-identical answers to identical requests', async () => {
    const send = () =>
      fetch(`${simulator.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': 'test', 'x-harness-seed': 'T1/baseline/2' },
        body: JSON.stringify(params),
      }).then((response) => response.text());
    expect(await send()).toBe(await send());
  });

  it('labels usage as estimated in a response header', async () => {
    const { response } = await client.messages.create(params).withResponse();
    expect(response.headers.get('x-harness-simulator')).toBe('estimated-usage');
    expect(response.headers.get('request-id')).toMatch(/^req_/);
  });

  it('answers 401 in the API error shape when no key is sent', async () => {
    const response = await fetch(`${simulator.url}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify(params),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      type: 'error',
      error: { type: 'authentication_error', message: 'x-api-key header is required' },
    });
  });

  it('answers 400 through the SDK for a tool_use without its tool_result', async () => {
    const toolUse = { type: 'tool_use' as const, id: 'toolu_01x', name: 'get_order', input: {} };
    const messages: Anthropic.MessageParam[] = [
      { role: 'user', content: PROMPT },
      { role: 'assistant', content: [toolUse] },
      { role: 'user', content: 'well?' },
    ];
    const error = await client.messages.create({ ...params, messages }).catch((caught) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.status).toBe(400);
    expect(error.type).toBe('invalid_request_error');
    expect(error.apiMessage).toMatch(/tool_use` ids were found without `tool_result/);
  });

  it('answers 400 for a body that is not JSON and 404 for other paths', async () => {
    const headers = { 'x-api-key': 'test' };
    const bad = await fetch(`${simulator.url}/v1/messages`, { method: 'POST', headers, body: '{' });
    expect(await kindOf(bad)).toEqual([400, 'invalid_request_error']);
    const missing = await fetch(`${simulator.url}/v1/models`, { headers });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      type: 'error',
      error: { type: 'not_found_error', message: 'Not found' },
    });
  });
});

describe('startSimulator faults', () => {
  it('serves faults, in order, to the first requests, with retry-after', async () => {
    const simulator = await startSimulator({
      faults: [
        { status: 429, retryAfterSeconds: 7 },
        { status: 529 },
        { status: 500, type: 'api_error' },
      ],
    });
    try {
      const send = () =>
        fetch(`${simulator.url}/v1/messages`, {
          method: 'POST',
          headers: { 'x-api-key': 'test' },
          body: JSON.stringify(params),
        });
      const first = await send();
      expect(first.headers.get('retry-after')).toBe('7');
      expect(await kindOf(first)).toEqual([429, 'rate_limit_error']);
      const second = await send();
      expect(await kindOf(second)).toEqual([529, 'overloaded_error']);
      expect(second.headers.get('retry-after')).toBeNull();
      const third = await send();
      expect(await kindOf(third)).toEqual([500, 'api_error']);
      const fourth = await send();
      expect(await kindOf(fourth)).toEqual([200, 'message']);
      expect(simulator.requestCount()).toBe(4);
    } finally {
      await simulator.close();
    }
  });

  it('lets the SDK retry past an overload fault', async () => {
    const simulator = await startSimulator({ faults: [{ status: 529, retryAfterSeconds: 0.001 }] });
    try {
      const client = new Anthropic({ apiKey: 'test', baseURL: simulator.url, maxRetries: 1 });
      const message = await client.messages.create(params);
      expect(message.type).toBe('message');
      expect(simulator.requestCount()).toBe(2);
    } finally {
      await simulator.close();
    }
  });
});
