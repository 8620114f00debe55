import { describe, expect, it } from 'vitest';
import type { TapedRequest } from './cassette.js';
import { requestOfInit, tapeRequest } from './http-exchange.js';
import { createReplayFetch } from './replay-fetch.js';

const URL_ = 'http://replay.local/v1/messages?beta=true';
const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });

describe('requestOfInit', () => {
  it.each<[string, RequestInit]>([
    [
      'a header record',
      {
        method: 'post',
        body,
        headers: { 'Content-Type': 'application/json', 'X-Api-Key': 'k', 'anthropic-version': '1' },
      },
    ],
    [
      'a Headers object',
      {
        method: 'POST',
        body,
        headers: new Headers({ 'content-type': 'application/json', 'anthropic-beta': 'b' }),
      },
    ],
    ['a string body without a content type', { method: 'POST', body: 'not json' }],
    ['no body at all', {}],
  ])('tapes %s exactly as a Request would be taped', async (_, init) => {
    expect(requestOfInit(URL_, init)).toEqual(await tapeRequest(new Request(URL_, init)));
  });

  it('leaves bodies it cannot read without a Request to the slow path', () => {
    expect(requestOfInit(URL_, { method: 'POST', body: new Uint8Array([1]) })).toBeUndefined();
    expect(requestOfInit(URL_, { headers: [['a', 'b']] })).toBeUndefined();
  });
});

describe('createReplayFetch', () => {
  const served: TapedRequest[] = [];
  const replayFetch = createReplayFetch({
    baseURL: 'http://replay.local',
    serve: (request) => {
      served.push(request);
      return new Response('{"ok":true}', { headers: { 'content-type': 'application/json' } });
    },
  });

  it('serves requests under its base URL in process, from a string, a URL or a Request', async () => {
    served.length = 0;
    const init = { method: 'POST', body, headers: { 'content-type': 'application/json' } };
    await expect((await replayFetch(URL_, init)).json()).resolves.toEqual({ ok: true });
    await replayFetch(new URL(URL_), init);
    await replayFetch(new Request(URL_, init));
    expect(served).toHaveLength(3);
    expect(served[1]).toEqual(served[0]);
    expect(served[2]).toEqual(served[0]);
    expect(served[0]).toMatchObject({ method: 'POST', path: '/v1/messages?beta=true' });
  });

  it('refuses any other URL, like an unhandled request', async () => {
    await expect(replayFetch('https://api.anthropic.com/v1/messages')).rejects.toThrow(
      'replay: no recording serves GET https://api.anthropic.com/v1/messages; only http://replay.local is replayed',
    );
    await expect(replayFetch('http://replay.localhost/v1/messages')).rejects.toThrow(TypeError);
  });

  it('rejects a request whose signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(replayFetch(URL_, { signal: controller.signal })).rejects.toThrow('stop');
  });
});
