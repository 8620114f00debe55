import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../core/clock.js';
import { sendJudgeRequest } from './judge-call.js';
import type { JudgeRequest } from './judge-prompt.js';

const TOKEN = 'tok_live_0123456789abcdef';

const request = {
  check: 'tone',
  model: { provider: 'anthropic', api: 'messages', id: 'claude-judge' },
  path: '/v1/messages',
  body: {},
  rubricHash: 'r',
  promptHash: 'p',
  key: 'k',
} as unknown as JudgeRequest;

/** Real time for `now`, every wait noted and skipped. */
function notingClock(): Clock & { waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    now: () => Date.now(),
    sleep: async (ms) => {
      waits.push(ms);
    },
  };
}

describe('sendJudgeRequest', () => {
  it('keeps a user-token of the judge base URL out of its error (fetch quotes the URL)', async () => {
    // Node's fetch refuses a URL with credentials before it connects, quoting the URL.
    const error = await sendJudgeRequest(
      { baseURL: `http://${TOKEN}@127.0.0.1:9`, apiKey: 'k', fetch: globalThis.fetch },
      request,
      notingClock(),
    ).catch((thrown: unknown) => thrown as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      /^cannot reach the Messages API at http:\/\/\[redacted\]@127\.0\.0\.1:9/,
    );
    expect((error as Error).message).not.toContain(TOKEN);
  });

  // Issue 35: the judge's own retry loop read retry-after as seconds only, and waited 1 s.
  it('waits the HTTP date a 429 names in retry-after, as every model call does', async () => {
    let calls = 0;
    const server = createServer((_request, response) => {
      calls += 1;
      if (calls === 1) {
        const at = new Date(Date.now() + 7_000).toUTCString();
        response.writeHead(429, { 'retry-after': at, 'content-type': 'application/json' });
        response.end('{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}');
        return;
      }
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end('{"type":"error","error":{"type":"invalid_request_error","message":"no"}}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const clock = notingClock();
    try {
      const exchange = await sendJudgeRequest(
        { baseURL: `http://127.0.0.1:${port}`, apiKey: 'k', fetch: globalThis.fetch },
        request,
        clock,
      );
      expect(exchange.response.status).toBe(400);
      expect(exchange.retries).toEqual([{ status: 429, latencyMs: expect.any(Number) }]);
    } finally {
      server.close();
    }
    expect(clock.waits).toHaveLength(1);
    expect(clock.waits[0]).toBeGreaterThan(5_000);
  });
});
