import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatSseEvent } from '../../model-api/sse.js';

/** The subset of a Messages API request body the fake looks at. */
export interface FakeRequestBody {
  model: string;
  stream?: boolean;
  tools?: Array<{ name: string }>;
  messages: Array<{ role: string; content: unknown }>;
}

interface FakeMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: Array<
    { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown }
  >;
  stop_reason: 'end_turn' | 'tool_use';
  stop_sequence: null;
  usage: { input_tokens: number; output_tokens: number };
}

export interface FakeMessagesApi {
  url: string;
  /** Bodies of every request received, in order. */
  readonly requests: FakeRequestBody[];
  /** Answer the next request with this error instead (e.g. 529 overloaded). */
  failNext(status: number, headers?: Record<string, string>): void;
  /** Extra headers on every later answer. */
  setHeaders(headers: Record<string, string>): void;
  /** Text appended to every later final answer (to plant things in bodies). */
  setSuffix(text: string): void;
  /** Split streamed text into `text_delta` events of this many characters (default: 8, then the rest). */
  setDeltaSize(size: number | undefined): void;
  /** Streams wait for this before their last events: proves the client reads while the stream is open. */
  holdStreamsUntil(gate: Promise<void>): void;
  close(): Promise<void>;
}

/**
 * A Messages API double on 127.0.0.1: with tools and no tool result yet it asks for
 * the last tool (`input: { order_id: 'A-1' }`); otherwise it answers with text that
 * echoes the last user text or tool result. JSON, or SSE when `stream` is true.
 */
export async function startFakeMessagesApi(): Promise<FakeMessagesApi> {
  const requests: FakeRequestBody[] = [];
  const failures: Array<{ status: number; headers: Record<string, string> }> = [];
  let extraHeaders: Record<string, string> = {};
  let suffix = '';
  let deltaSize: number | undefined;
  let gate: Promise<void> = Promise.resolve();

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as FakeRequestBody;
    requests.push(body);
    const failure = failures.shift();
    if (failure) {
      response.writeHead(failure.status, {
        'content-type': 'application/json',
        ...failure.headers,
      });
      const error = { type: 'overloaded_error', message: 'Overloaded' };
      response.end(JSON.stringify({ type: 'error', error }));
      return;
    }
    const message = answer(body, requests.length, suffix);
    if (!body.stream) {
      response.writeHead(200, { 'content-type': 'application/json', ...extraHeaders });
      response.end(JSON.stringify(message));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', ...extraHeaders });
    const events = streamEvents(message, deltaSize);
    for (const [index, [event, data]] of events.entries()) {
      if (index === events.length - 2) await gate;
      response.write(formatSseEvent({ event, data }));
    }
    response.end();
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext: (status, headers = {}) => {
      failures.push({ status, headers });
    },
    setHeaders: (headers) => {
      extraHeaders = headers;
    },
    setSuffix: (text) => {
      suffix = text;
    },
    setDeltaSize: (size) => {
      deltaSize = size;
    },
    holdStreamsUntil: (next) => {
      gate = next;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function answer(body: FakeRequestBody, count: number, suffix: string): FakeMessage {
  const last = body.messages.at(-1);
  const content = Array.isArray(last?.content)
    ? (last.content as Array<Record<string, unknown>>)
    : [];
  const toolResult = content.find((block) => block.type === 'tool_result');
  const tool = body.tools?.at(-1);
  const base = {
    id: `msg_${count}`,
    type: 'message',
    role: 'assistant',
    model: body.model,
  } as const;
  const usage = { input_tokens: 10, output_tokens: 5 };
  if (tool && !toolResult) {
    const call = {
      type: 'tool_use',
      id: `toolu_${count}`,
      name: tool.name,
      input: { order_id: 'A-1' },
    } as const;
    return { ...base, content: [call], stop_reason: 'tool_use', stop_sequence: null, usage };
  }
  const said = toolResult ? String(toolResult.content) : String(last?.content);
  const text = `You said: ${said}${suffix}`;
  return {
    ...base,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage,
  };
}

function streamEvents(message: FakeMessage, deltaSize?: number): Array<[string, unknown]> {
  const events: Array<[string, unknown]> = [
    [
      'message_start',
      { type: 'message_start', message: { ...message, content: [], stop_reason: null } },
    ],
    ['ping', { type: 'ping' }],
  ];
  for (const [index, block] of message.content.entries()) {
    if (block.type === 'text') {
      events.push([
        'content_block_start',
        { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
      ]);
      const pieces =
        deltaSize === undefined
          ? [block.text.slice(0, 8), block.text.slice(8)]
          : (block.text.match(new RegExp(`[^]{1,${deltaSize}}`, 'g')) ?? []);
      for (const text of pieces) {
        events.push([
          'content_block_delta',
          { type: 'content_block_delta', index, delta: { type: 'text_delta', text } },
        ]);
      }
    } else {
      const start = { ...block, input: {} };
      events.push([
        'content_block_start',
        { type: 'content_block_start', index, content_block: start },
      ]);
      const partial_json = JSON.stringify(block.input);
      events.push([
        'content_block_delta',
        { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } },
      ]);
    }
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  }
  const delta = { stop_reason: message.stop_reason, stop_sequence: null };
  events.push(
    [
      'message_delta',
      { type: 'message_delta', delta, usage: { output_tokens: message.usage.output_tokens } },
    ],
    ['message_stop', { type: 'message_stop' }],
  );
  return events;
}
