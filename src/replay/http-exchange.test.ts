import { describe, expect, it } from 'vitest';
import type { TapedRequest } from './cassette.js';
import { tapeResponse } from './http-exchange.js';

const requestTo = (path: string, stream: boolean): TapedRequest => ({
  method: 'POST',
  path,
  headers: {},
  body: { model: 'm', messages: [], ...(stream && { stream: true }) },
});

const message = JSON.stringify({ type: 'message', content: [] });
const sseText = 'event: ping\ndata: {"type":"ping"}\n\n';
const ndjson = '{"done":false}\n{"done":true}\n';

describe('tapeResponse', () => {
  it.each<[string, string, boolean, string | undefined, string, unknown]>([
    [
      'a Messages API stream labelled text/plain',
      '/v1/messages',
      true,
      'text/plain',
      sseText,
      'events',
    ],
    [
      'a Chat Completions stream without a content type',
      '/chat/completions',
      true,
      undefined,
      sseText,
      'events',
    ],
    [
      'a Messages API message labelled application/json',
      '/v1/messages',
      false,
      'application/json; charset=utf-8',
      message,
      JSON.parse(message),
    ],
    [
      'a Messages API message labelled +json',
      '/v1/messages',
      false,
      'application/vnd.api+json',
      message,
      JSON.parse(message),
    ],
    [
      'a Messages API message labelled text/plain',
      '/v1/messages',
      false,
      'text/plain',
      message,
      message,
    ],
    [
      'a Messages API message without a content type',
      '/v1/messages',
      false,
      undefined,
      message,
      message,
    ],
    [
      'a chat completion labelled text/plain',
      '/chat/completions',
      false,
      'text/plain',
      '{"choices":[]}',
      { choices: [] },
    ],
    ['an NDJSON stream of another API', '/api/chat', true, 'application/x-ndjson', ndjson, ndjson],
    [
      'a JSON answer of another API to stream: true',
      '/api/chat',
      true,
      'application/json',
      '{"a":1}',
      { a: 1 },
    ],
    ['an SSE stream of another API', '/api/chat', false, 'text/event-stream', sseText, 'events'],
  ])('keeps %s as the client reads it', (_name, path, stream, contentType, text, kept) => {
    const headers = new Headers(contentType === undefined ? {} : { 'content-type': contentType });
    const response = tapeResponse(200, headers, text, requestTo(path, stream));
    if (kept === 'events') {
      expect(response).toMatchObject({ events: [{ event: 'ping', data: { type: 'ping' } }] });
    } else {
      expect(response).not.toHaveProperty('events');
      expect(response).toMatchObject({ status: 200, body: kept });
    }
  });

  it('keeps an error answer to a stream request as JSON, whatever the API', () => {
    const error = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
    for (const path of ['/v1/messages', '/api/chat']) {
      const headers = new Headers({ 'content-type': 'text/event-stream' });
      const response = tapeResponse(529, headers, JSON.stringify(error), requestTo(path, true));
      expect(response).toEqual({
        status: 529,
        headers: { 'content-type': 'text/event-stream' },
        body: error,
      });
    }
  });
});
