import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelApiError } from '../core/errors.js';
import { createAnthropicModel } from './model-client.js';

let server: Server;
let baseURL: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const status = Number(request.url?.split('/')[1]);
    const type = status === 401 ? 'authentication_error' : 'api_error';
    response.writeHead(status, { 'content-type': 'application/json' });
    // A gateway that echoes the request: its key, a terminal escape, and a long tail.
    const message =
      request.url?.split('/')[2] === 'echo'
        ? `bad request from key ${request.headers['x-api-key'] ?? request.headers.authorization?.replace(/^Bearer /, '')} \u001b]52;c;cHduZWQ=\u0007${'x'.repeat(2000)}`
        : `planted ${status}`;
    response.end(JSON.stringify({ type: 'error', error: { type, message } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const request = {
  model: 'm',
  max_tokens: 10,
  messages: [{ role: 'user' as const, content: 'hi' }],
};

async function failure(base: string, apiKey = 'test-key'): Promise<ModelApiError> {
  const client = new Anthropic({ apiKey, baseURL: base, maxRetries: 0 });
  try {
    await createAnthropicModel({ client }).createMessage(request);
  } catch (error) {
    if (error instanceof ModelApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('createAnthropicModel', () => {
  it('turns a 401 into one line that says to check the key', async () => {
    const error = await failure(`${baseURL}/401`);
    expect(error.status).toBe(401);
    expect(error.message).toBe(
      `authentication failed (401) at ${baseURL}/401: check ANTHROPIC_API_KEY`,
    );
  });

  it('turns an API error status into one line with its type and message', async () => {
    const error = await failure(`${baseURL}/500`);
    expect(error.message).toBe('Messages API error 500 api_error: planted 500');
  });

  it("quotes the server's message with the key in use masked, escapes shown inert, cut short", async () => {
    const key = 'gw-live-0123456789abcdef';
    const error = await failure(`${baseURL}/400/echo`, key);
    expect(error.message).toMatch(
      /^Messages API error 400 api_error: bad request from key \[redacted API key\] /,
    );
    expect(error.message).not.toContain(key);
    expect(error.message).not.toContain('\u001b');
    expect(error.message).not.toContain('\u0007');
    expect(error.message.length).toBeLessThan(400);
  });

  it('names the unreachable host and the system error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await failure(`http://127.0.0.1:${port}`);
    expect(error.message).toMatch(
      /^cannot reach the Messages API at http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/,
    );
    expect(error.message).toContain('check ANTHROPIC_BASE_URL');
  });
});
