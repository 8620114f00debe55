import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  modelApiFailure as failure,
  type HostileApi,
  raw,
  startHostileApi,
} from '../runtime/testing/hostile-api.js';
import { createChatCompletion } from './chat-completions-client.js';
import { chunks } from './testing/chat-answers.js';

let api: HostileApi;
beforeAll(async () => {
  api = await startHostileApi();
});
afterAll(() => api.close());

/** A gateway key of no known credential shape: only its exact value can find it. */
const apiKey = 'gw-live-7f3a9c1e5b2d4680';

const call = (stream = false) =>
  createChatCompletion({
    fetch,
    baseURL: api.url,
    apiKey,
    body: { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], stream },
  });

/** What a server that echoes the request back puts in its error text, with terminal escapes. */
const echo = [
  `{"error":"bad request","echo":{"headers":{"authorization":"Bearer ${apiKey}"}`,
  `"query":"api_key=${apiKey}","other":"sk-proj-${'a'.repeat(24)}"}}`,
  '\u001b]52;c;cGF3bmVk\u0007\u001b[2J\u009b31m',
].join(',');

function expectSafe(message: string) {
  expect(message).not.toContain(apiKey);
  expect(message).not.toContain(apiKey.slice(0, 12));
  expect(message).not.toContain(`sk-proj-${'a'.repeat(24)}`);
  expect(message).toContain('[redacted');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
  expect(message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  expect(message).toContain('\\u001b]52;c;');
}

describe('createChatCompletion: the text of a failed answer in the error message', () => {
  it('masks the key in use and credentials a non-2xx body echoes, and escapes control characters', async () => {
    api.script(raw(echo, 'application/json', 400));
    const error = await failure(call());
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/answered 400: \{"error":"bad request"/);
    expectSafe(error.message);
  });

  it('masks the key even when the echo starts near the 300-character cut', async () => {
    api.script(raw(`${'x'.repeat(290)}${apiKey}`, 'text/plain', 502));
    const error = await failure(call());
    expect(error.message).not.toContain(apiKey.slice(0, 10));
    expect(error.message).toContain('[redacted');
  });

  it('masks and escapes an error a stream sends the same way', async () => {
    api.script(chunks([{ error: { message: echo, code: 400 } }], { done: false }));
    const error = await failure(call(true));
    expectSafe(error.message);
  });
});

describe('createChatCompletion: a key with edge whitespace', () => {
  // fetch trims header values, so the server sees (and may echo) the key without it.
  it.each([
    ['a trailing space', `${apiKey} `],
    ['a trailing \\r (a CRLF env file)', `${apiKey}\r`],
    ['a leading space', ` ${apiKey}`],
  ])('masks the echo of the key it sent when the key has %s', async (_name, key) => {
    api.script((response, { incoming }) => {
      const sent = String(incoming.headers.authorization).replace(/^Bearer\s*/, '');
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: 'bad key', query: `api_key=${sent}` }));
    });
    const error = await failure(
      createChatCompletion({
        fetch,
        baseURL: api.url,
        apiKey: key,
        body: { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] },
      }),
    );
    expect(error.message).toMatch(/api_key=\[redacted API key\]/);
    expect(error.message).not.toContain(apiKey.slice(0, 12));
  });
});
