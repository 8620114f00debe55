import { canonicalize } from '../core/canonical-json.js';
import { isJsonObject } from '../model-api/answer-fields.js';
import { modelApiOf } from '../model-api/retryable-answer.js';
import { isEventStream, parseSseEvents, sseStream } from '../model-api/sse.js';
import {
  isSseResponse,
  RECORDED_REQUEST_HEADERS,
  RECORDED_RESPONSE_HEADERS,
  type TapedRequest,
  type TapedResponse,
} from './cassette.js';
import { pickHeaders } from './cassette-file.js';

/**
 * What a cassette keeps of a request: method, path relative to `basePath`,
 * allow-listed headers and the canonical body. Reads the body: pass a clone.
 */
export async function tapeRequest(request: Request, basePath = ''): Promise<TapedRequest> {
  const url = new URL(request.url);
  const pathname =
    basePath && url.pathname.startsWith(basePath)
      ? url.pathname.slice(basePath.length)
      : url.pathname;
  return {
    method: request.method.toUpperCase(),
    path: `${pathname.startsWith('/') ? '' : '/'}${pathname}${url.search}`,
    headers: pickHeaders(request.headers, RECORDED_REQUEST_HEADERS),
    body: parseBody(await request.text()),
  };
}

/**
 * `tapeRequest` without building a `Request`, for a string URL and a string (or no)
 * body, which is how the SDK calls `fetch`; undefined for anything else.
 */
export function requestOfInit(
  url: string,
  init: RequestInit | undefined,
): TapedRequest | undefined {
  const body = init?.body;
  const raw = init?.headers;
  if ((body !== undefined && body !== null && typeof body !== 'string') || Array.isArray(raw)) {
    return undefined;
  }
  const headers = pickHeaders(
    (raw ?? {}) as Headers | Record<string, string | undefined>,
    RECORDED_REQUEST_HEADERS,
  );
  // What `new Request(url, { body: 'text' })` adds when the caller set no content type.
  if (
    typeof body === 'string' &&
    headers['content-type'] === undefined &&
    !hasHeader(raw, 'content-type')
  ) {
    headers['content-type'] = 'text/plain;charset=UTF-8';
  }
  const parsed = new URL(url);
  return {
    method: (init?.method ?? 'GET').toUpperCase(),
    path: `${parsed.pathname}${parsed.search}`,
    headers,
    // Not canonicalised: matching compares JSON values in any key order, and messages
    // sort keys when they print a value (divergence.ts), so the sorted copy would be waste.
    body: parseBody(typeof body === 'string' ? body : '', false),
  };
}

function hasHeader(headers: RequestInit['headers'], name: string): boolean {
  if (!headers) return false;
  if (headers instanceof Headers) return headers.has(name);
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}

/** Did the request ask for a stream (`stream: true` in its JSON body)? The one source the model API clients and the tape read a stream from. */
export function asksForStream(request: TapedRequest): boolean {
  return isJsonObject(request.body) && request.body.stream === true;
}

/**
 * What a cassette keeps of a response: status, allow-listed headers, and the body read as the
 * client of its API reads it. A 2xx answer of the Messages API or Chat Completions is SSE
 * events when the request asked for a stream (`stream: true`), whatever its content type says
 * (both SDKs read it so: `text/plain` or none). Without a stream, Chat Completions' client reads
 * JSON whatever the content type, while `@anthropic-ai/sdk` reads JSON only from an
 * `application/json` or `+json` answer and takes anything else as its text, so such a 2xx
 * Messages API answer is kept as text (never a message: the tape folds it as the retry it was).
 * Another API's 2xx answer is SSE events only when labelled `text/event-stream` (an NDJSON
 * stream stays its text). Every other answer: parsed JSON, or its text when it is not JSON.
 */
export function tapeResponse(
  status: number,
  headers: Headers,
  text: string,
  request: TapedRequest,
): TapedResponse {
  const kept = pickHeaders(headers, RECORDED_RESPONSE_HEADERS);
  if (status < 200 || status >= 300) return { status, headers: kept, body: parseBody(text) };
  const api = modelApiOf(request.method, request.path);
  const contentType = headers.get('content-type');
  if (api === undefined ? isEventStream(contentType) : asksForStream(request)) {
    return { status, headers: kept, events: parseSseEvents(text) };
  }
  if (api === 'messages' && !isJsonMediaType(contentType)) {
    return { status, headers: kept, body: text === '' ? null : text };
  }
  return { status, headers: kept, body: parseBody(text) };
}

/** JSON to `@anthropic-ai/sdk` (internal/parse.mjs): a media type with `application/json` or ending in `+json`, compared as sent. */
function isJsonMediaType(contentType: string | null): boolean {
  const media = contentType?.split(';')[0]?.trim();
  return media !== undefined && (media.includes('application/json') || media.endsWith('+json'));
}

/** The recorded response as the SDK would have received it. */
export function replayResponse(response: TapedResponse): Response {
  const headers = new Headers(response.headers);
  if (isSseResponse(response)) {
    if (!headers.has('content-type')) headers.set('content-type', 'text/event-stream');
    return new Response(sseStream(response.events), { status: response.status, headers });
  }
  if (NULL_BODY_STATUSES.has(response.status) || response.body === null) {
    return new Response(null, { status: response.status, headers });
  }
  if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  const body = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
  return new Response(body, { status: response.status, headers });
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/** Canonical JSON when the text is JSON, the text itself otherwise, `null` when empty. */
function parseBody(text: string, canonical = true): unknown {
  if (text === '') return null;
  try {
    const parsed = JSON.parse(text);
    return canonical ? canonicalize(parsed) : parsed;
  } catch {
    return text;
  }
}
