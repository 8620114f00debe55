import type { Cassette, Exchange } from '../cassette.js';
import { serializeCassette } from '../cassette-file.js';

/** A JSON exchange answering one user message. */
export function textExchange(question: string, answer: string, latencyMs = 120): Exchange {
  return {
    request: {
      method: 'POST',
      path: '/v1/messages',
      headers: { 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: {
        max_tokens: 256,
        messages: [{ content: question, role: 'user' }],
        model: 'claude-test-1',
      },
    },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: { content: [{ text: answer, type: 'text' }], role: 'assistant', type: 'message' },
    },
    latencyMs,
  };
}

/** A valid cassette for task T1, variant upgraded. */
export function testCassette(exchanges: Exchange[], trial = 2): Cassette {
  return {
    version: 1,
    meta: {
      task: 'T1',
      variant: 'upgraded',
      trial,
      recordedAt: '2025-03-01T09:00:05.000Z',
      now: '2025-03-01T09:00:00.000Z',
      model: 'claude-test-1',
      sdkVersion: '1.16.0',
      source: 'simulator',
      host: '127.0.0.1:4000',
    },
    exchanges,
  };
}

/**
 * A cassette file's text with its contentHash recomputed for whatever `data` now holds: what
 * someone who edits a cassette and its hash writes (a test of what else catches that edit).
 */
export function resealed(data: unknown): string {
  const { contentHash: _old, ...content } = data as Record<string, unknown>;
  const text = serializeCassette(content as unknown as Cassette);
  return text;
}
