import { describe, expect, it } from 'vitest';
import { parseSseEvents, sseStream } from './sse.js';

describe('parseSseEvents', () => {
  it('parses events, keeping ping and error events and skipping comments', () => {
    const text = [
      'event: message_start\r\ndata: {"type":"message_start"}\r\n\r\n',
      ': keep-alive\n\n',
      'event: ping\ndata: {"type": "ping"}\n\n',
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error"}}\n\n',
      'data: line one\ndata: line two\n\n',
    ].join('');
    expect(parseSseEvents(text)).toEqual([
      { event: 'message_start', data: { type: 'message_start' } },
      { event: 'ping', data: { type: 'ping' } },
      { event: 'error', data: { type: 'error', error: { type: 'overloaded_error' } } },
      { event: 'message', data: 'line one\nline two' },
    ]);
  });
});

describe('sseStream', () => {
  it('writes one event per chunk in the Messages API format and parses back', async () => {
    const events = [
      { event: 'message_start', data: { type: 'message_start' } },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ];
    const chunks: string[] = [];
    const decoder = new TextDecoder();
    for await (const chunk of sseStream(events)) chunks.push(decoder.decode(chunk));
    expect(chunks).toEqual([
      'event: message_start\ndata: {"type":"message_start"}\n\n',
      'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    ]);
    expect(parseSseEvents(chunks.join(''))).toEqual(events);
  });
});

describe('sseStream of Chat Completions events', () => {
  it('sends data-only events and a raw [DONE], as an OpenAI-compatible server does', async () => {
    const text = await new Response(
      sseStream([
        { event: 'message', data: { choices: [] } },
        { event: 'message', data: '[DONE]' },
      ]),
    ).text();
    expect(text).toBe('data: {"choices":[]}\n\ndata: [DONE]\n\n');
    expect(parseSseEvents(text)).toEqual([
      { event: 'message', data: { choices: [] } },
      { event: 'message', data: '[DONE]' },
    ]);
  });
});
