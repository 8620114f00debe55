import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ModelApiError } from '../../core/errors.js';
import { formatSseEvent } from '../../model-api/sse.js';

/** Answers one request; `n` counts requests from 1. */
export type HostileHandler = (
  response: ServerResponse,
  request: { n: number; body: string; incoming: IncomingMessage },
) => void;

export interface HostileApi {
  url: string;
  /** The handlers answer requests in turn; the last one answers every later request. */
  script(...handlers: HostileHandler[]): void;
  readonly requests: string[];
  close(): Promise<void>;
}

/** A Messages API stand-in on 127.0.0.1 that answers whatever the test scripts, valid or not. */
export async function startHostileApi(): Promise<HostileApi> {
  let handlers: HostileHandler[] = [];
  const requests: string[] = [];
  const open = new Set<ServerResponse>();
  const server = createServer(async (incoming, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    requests.push(Buffer.concat(chunks).toString('utf8'));
    const n = requests.length;
    open.add(response);
    response.on('close', () => open.delete(response));
    const handler = handlers[Math.min(n, handlers.length) - 1];
    if (!handler) return void response.writeHead(500).end('no handler scripted');
    handler(response, { n, body: requests.at(-1)!, incoming });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    script(...next) {
      handlers = next;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of open) response.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A valid Messages API message with one text block. */
export function textMessage(
  text = 'hello',
  usage: unknown = { input_tokens: 10, output_tokens: 5 },
) {
  return { ...assistantMessage([{ type: 'text', text }], 'end_turn'), usage };
}

/** A valid Messages API message with the given content blocks and stop reason. */
export function assistantMessage(content: unknown[], stopReason: string) {
  return {
    id: 'msg_01',
    type: 'message',
    role: 'assistant',
    model: 'claude-test-1',
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 } as unknown,
  };
}

export const json =
  (body: unknown, status = 200, headers: Record<string, string> = {}): HostileHandler =>
  (response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(typeof body === 'string' ? body : JSON.stringify(body));
  };

export const raw =
  (text: string, contentType: string, status = 200): HostileHandler =>
  (response) => {
    response.writeHead(status, { 'content-type': contentType });
    response.end(text);
  };

/** SSE events written at once; `end: false` keeps the stream open, `cut` destroys the socket. */
export const sse =
  (
    events: Array<{ type: string; [key: string]: unknown }>,
    options: { end?: boolean; cut?: boolean } = {},
  ): HostileHandler =>
  (response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const data of events) response.write(formatSseEvent({ event: data.type, data }));
    if (options.cut) setImmediate(() => response.destroy());
    else if (options.end !== false) response.end();
  };

/** The events of a complete stream that answers `text`. */
export function streamOf(text = 'hello'): Array<{ type: string; [key: string]: unknown }> {
  const message = { ...textMessage(''), content: [], stop_reason: null };
  return [
    {
      type: 'message_start',
      message: { ...message, usage: { input_tokens: 10, output_tokens: 1 } },
    },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
    { type: 'content_block_stop', index: 0 },
    {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: 5 },
    },
    { type: 'message_stop' },
  ];
}

/** Headers, then a part of a JSON body, then the socket is destroyed. */
export const cutJson =
  (part: string): HostileHandler =>
  (response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
    response.write(part);
    setImmediate(() => response.destroy());
  };

/** Headers, then nothing more until the server closes. */
export const stall: HostileHandler = (response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.write(' ');
};

/** The ModelApiError a model call failed with; throws when it answered, or failed otherwise. */
export async function modelApiFailure(promise: Promise<unknown>): Promise<ModelApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ModelApiError) return error;
    throw new Error(`expected a ModelApiError, got ${String(error)}`);
  }
  throw new Error('expected the call to fail');
}
