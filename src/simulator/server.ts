import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { formatSseEvent } from '../model-api/sse.js';
import { errorTypeFor } from './api-error.js';
import { type ChatSimResult, respondChat } from './chat-completions.js';
import type { Policy } from './policy.js';
import { errorResult, respond, type SimResult } from './respond.js';
import { type ResponsesOptions, type ResponsesSimResult, respondResponses } from './responses.js';

/** An error served instead of an answer, e.g. `{ status: 529 }` or `{ status: 429, retryAfterSeconds: 0 }`. */
export interface SimulatorFault {
  status: number;
  retryAfterSeconds?: number;
  /** The error type in the body; defaults from the status (429 rate_limit_error, 529 overloaded_error, ...). */
  type?: string;
}

export interface SimulatorOptions {
  /** Default 0: an ephemeral port. */
  port?: number;
  /** Seeded per-response delay range in ms. Default [0, 0]. */
  delayMs?: [number, number];
  /** Served, in order, to the first requests; then the simulator answers normally. */
  faults?: SimulatorFault[];
  /** Default: the refund-desk policy (and plain text for anything else). */
  policies?: readonly Policy[];
  /** A request no policy matches: a plain text answer (default) or a 400 (`error`, for recording). */
  unmatched?: 'plain-text' | 'error';
}

export interface RunningSimulator {
  /** `http://127.0.0.1:PORT`: use it as the SDK's baseURL / ANTHROPIC_BASE_URL. */
  url: string;
  close(): Promise<void>;
  /** HTTP requests received so far, faults and errors included. */
  requestCount(): number;
}

/**
 * Serve the simulated Messages API (`POST /v1/messages`), OpenAI-compatible Chat Completions
 * (`POST /v1/chat/completions`) and the OpenAI Responses API (`POST /v1/responses`), JSON and
 * SSE, on 127.0.0.1.
 *
 * @example
 * const simulator = await startSimulator({ faults: [{ status: 529 }] });
 * const client = new Anthropic({ apiKey: 'test', baseURL: simulator.url });
 * await simulator.close();
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const faults = [...(options.faults ?? [])];
  let count = 0;
  // What a Responses request's item_reference names: the items this simulator answered with.
  const items = new Map<string, Record<string, unknown>>();
  const server = createServer((request, response) => {
    count++;
    handle(request, response, faults.shift(), { ...options, items }).catch((error: unknown) => {
      if (!response.headersSent) {
        send(response, errorResult(500, 'api_error', `simulator failure: ${String(error)}`));
      } else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requestCount: () => count,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets of SDK clients would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}

async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  fault: SimulatorFault | undefined,
  options: SimulatorOptions & { items: ResponsesOptions['items'] },
): Promise<void> {
  const text = await readBody(request);
  if (fault) return send(response, faultResult(fault));
  const path = (request.url ?? '/').split('?')[0] ?? '/';
  const chat = path.endsWith('/chat/completions');
  const responses = path.endsWith('/responses');
  if (request.method !== 'POST' || !(chat || responses || path === '/v1/messages')) {
    return send(response, errorResult(404, 'not_found_error', 'Not found'));
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return send(
      response,
      errorResult(400, 'invalid_request_error', 'The request body is not valid JSON'),
    );
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const respondOptions = {
    ...(options.policies ? { policies: options.policies } : {}),
    ...(options.delayMs ? { delayMs: options.delayMs } : {}),
    ...(options.unmatched ? { unmatched: options.unmatched } : {}),
  };
  const result = chat
    ? respondChat(body, headers, respondOptions)
    : responses
      ? respondResponses(body, headers, {
          ...respondOptions,
          ...(options.items && { items: options.items }),
        })
      : respond(body, headers, respondOptions);
  if (result.delayMs > 0) await sleep(result.delayMs);
  send(response, result);
}

function faultResult(fault: SimulatorFault): SimResult {
  const result = errorResult(fault.status, fault.type ?? errorTypeFor(fault.status));
  if (fault.retryAfterSeconds !== undefined) {
    result.headers['retry-after'] = String(fault.retryAfterSeconds);
  }
  return result;
}

function send(
  response: ServerResponse,
  result: SimResult | ChatSimResult | ResponsesSimResult,
): void {
  response.writeHead(result.status, result.headers);
  if ('events' in result && result.events) {
    for (const data of result.events)
      response.write(formatSseEvent({ event: String(data.type), data }));
    response.end();
  } else if ('chunks' in result && result.chunks) {
    for (const data of result.chunks) response.write(formatSseEvent({ event: 'message', data }));
    response.end();
  } else {
    response.end(JSON.stringify(result.body));
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    request.on('error', reject);
  });
}
