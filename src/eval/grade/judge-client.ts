import { canonicalize } from '../../core/canonical-json.js';
import { errorMessage } from '../../core/errors.js';
import { redactText } from '../../core/redact.js';
import { DEFAULT_MODEL_TIMEOUT_MS, modelTimeoutFrom } from '../../model-api/call-deadline.js';
import { isRetriedAnswer, modelApiOf } from '../../model-api/retryable-answer.js';
import {
  type Exchange,
  RECORDED_REQUEST_HEADERS,
  type TapedRequest,
} from '../../replay/cassette.js';
import { pickHeaders } from '../../replay/cassette-file.js';
import { tapeResponse } from '../../replay/http-exchange.js';
import type { JudgeRequest } from './judge-prompt.js';

/** Where live judge calls go, and with what key. */
export interface JudgeEndpoint {
  baseURL: string;
  apiKey: string;
  /** The fetch to send with: msw's bypass while a recording server listens. */
  fetch: typeof globalThis.fetch;
}

/** Attempts per judge call: a retryable answer (429, 5xx, a malformed 200) is tried again. */
const ATTEMPTS = 3;
const MAX_WAIT_MS = 20_000;

/** The request as a cassette keeps it: method, path, the allow-listed headers, canonical body. */
export function tapedJudgeRequest(request: JudgeRequest): TapedRequest {
  const headers =
    request.model.provider === 'openai'
      ? { 'content-type': 'application/json' }
      : { 'anthropic-version': '2023-06-01', 'content-type': 'application/json' };
  return {
    method: 'POST',
    path: request.path,
    headers: pickHeaders(headers, RECORDED_REQUEST_HEADERS),
    body: canonicalize(request.body),
  };
}

function authHeaders(request: JudgeRequest, apiKey: string): Record<string, string> {
  return request.model.provider === 'openai'
    ? { authorization: `Bearer ${apiKey}` }
    : { 'x-api-key': apiKey };
}

/** How long to wait before retrying: retry-after-ms, retry-after (seconds), else 1 s, 2 s, ... */
function waitMs(headers: Headers, attempt: number): number {
  const ms = Number(headers.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms >= 0 && headers.has('retry-after-ms'))
    return Math.min(ms, MAX_WAIT_MS);
  const seconds = Number(headers.get('retry-after'));
  if (Number.isFinite(seconds) && seconds >= 0 && headers.has('retry-after')) {
    return Math.min(seconds * 1000, MAX_WAIT_MS);
  }
  return Math.min(1000 * 2 ** attempt, MAX_WAIT_MS);
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Send one judge call to the live endpoint (or a simulator), retrying what the model clients
 * retry (model-api/retryable-answer.ts, the rule the tape folds by). Returns the answer as a
 * cassette exchange, the retried attempts as its `retries`, exactly as recording an agent keeps
 * them. A host that cannot be reached after the last attempt throws.
 */
export async function sendJudgeRequest(
  endpoint: JudgeEndpoint,
  request: JudgeRequest,
  sleep: (ms: number) => Promise<void>,
): Promise<Exchange> {
  const taped = tapedJudgeRequest(request);
  const url = `${endpoint.baseURL.replace(/\/+$/, '')}${request.path}`;
  const init = {
    method: 'POST',
    headers: { ...taped.headers, ...authHeaders(request, endpoint.apiKey) },
    body: JSON.stringify(request.body),
  };
  const retries: NonNullable<Exchange['retries']> = [];
  // The deadline of a model call (--model-timeout), headers and body: a judge that never
  // answers fails its sample instead of holding the recording until the test times out.
  const timeoutMs = modelTimeoutFrom(process.env) ?? DEFAULT_MODEL_TIMEOUT_MS;
  for (let attempt = 0; ; attempt += 1) {
    const started = performance.now();
    let response: Response;
    let text: string;
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      response = await endpoint.fetch(url, { ...init, signal });
      text = await response.text();
    } catch (error) {
      if (signal.aborted) {
        throw new Error(
          `the judge API at ${new URL(url).host} did not answer within ${timeoutMs / 1000} s (the model call deadline, --model-timeout)`,
        );
      }
      if (attempt + 1 >= ATTEMPTS) {
        throw new Error(
          `the judge API at ${new URL(url).host} could not be reached: ${redactText(errorMessage(error))}`,
        );
      }
      await sleep(waitMs(new Headers(), attempt));
      continue;
    }
    const latencyMs = Math.round(performance.now() - started);
    const body = parse(text);
    const retried = isRetriedAnswer({
      status: response.status,
      shouldRetry: response.headers.get('x-should-retry'),
      api: modelApiOf('POST', request.path),
      cut: false,
      stream: false,
      body,
    });
    if (retried && attempt + 1 < ATTEMPTS) {
      retries.push({ status: response.status, latencyMs });
      await sleep(waitMs(response.headers, attempt));
      continue;
    }
    const exchange: Exchange = {
      request: taped,
      response: tapeResponse(response.status, response.headers, text, taped),
      latencyMs,
    };
    if (retries.length > 0) exchange.retries = retries;
    return exchange;
  }
}
