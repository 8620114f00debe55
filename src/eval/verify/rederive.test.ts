import { describe, expect, it } from 'vitest';
import { canonicalize } from '../../core/canonical-json.js';
import type { Cassette, Exchange } from '../../replay/cassette.js';
import { SEED_HEADER } from '../../simulator/respond.js';
import { respondResponses } from '../../simulator/responses.js';
import { simulatorSeed } from '../trial/simulator-seed.js';
import { rederive } from './rederive.js';

const meta: Cassette['meta'] = {
  task: 'T1',
  variant: 'upgraded',
  trial: 1,
  recordedAt: '2026-12-07T12:00:00.000Z',
  now: '2026-12-07T12:00:00.000Z',
  model: 'gpt-5-mini',
  provider: 'openai',
  sdkVersion: '1.0.0',
  source: 'simulator',
  host: '127.0.0.1:9',
};

/** A Responses API conversation as the simulator served it, one items store for both turns. */
function servedConversation(): Cassette {
  const headers = { authorization: 'Bearer sim', [SEED_HEADER]: simulatorSeed(meta) };
  const items = new Map<string, Record<string, unknown>>();
  const tools = [{ type: 'function', name: 'submit_verdict', parameters: {} }];
  const first = { model: 'gpt-5-mini', tools, input: [{ role: 'user', content: 'grade it' }] };
  const answer = respondResponses(first, headers, { items });
  const output = (answer.body as { output: Array<{ id: string }> }).output;
  // The client sends the earlier answer back by reference, as the Vercel AI SDK does.
  const second = {
    ...first,
    input: [
      ...first.input,
      { type: 'item_reference', id: output[0]!.id },
      { role: 'user', content: 'again' },
    ],
  };
  const exchange = (body: unknown, served: ReturnType<typeof respondResponses>): Exchange => ({
    request: { method: 'POST', path: '/v1/responses', headers: {}, body: canonicalize(body) },
    response: { status: served.status, headers: {}, body: canonicalize(served.body) },
    latencyMs: 1,
  });
  const exchanges = [
    exchange(first, answer),
    exchange(second, respondResponses(second, headers, { items })),
  ];
  return { version: 1, meta, exchanges };
}

describe('rederive', () => {
  it('re-derives a Responses API conversation whose later request names an earlier answer by item_reference', () => {
    const cassette = servedConversation();
    expect(cassette.exchanges.map((exchange) => exchange.response.status)).toEqual([200, 200]);
    expect(rederive(cassette)).toEqual({});
  });
});
