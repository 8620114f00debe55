import { canonicalize } from '../../core/canonical-json.js';
import type { Clock } from '../../core/clock.js';
import { DEFAULT_MODEL_TIMEOUT_MS, modelTimeoutFrom } from '../../model-api/call-deadline.js';
import { callModelApi } from '../../model-api/model-api-call.js';
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

/** Retries of a judge call: the count the SDK clients that record an agent use. */
const JUDGE_RETRIES = 2;

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

/**
 * Send one judge call to the live endpoint (or a simulator) through the model API layer: the
 * model call deadline (--model-timeout) on each attempt, and the retry policy of every model
 * call. Returns the answer as a cassette exchange, the retried attempts as its `retries`, as
 * recording an agent keeps them. A host that cannot be reached after the last attempt throws.
 */
export async function sendJudgeRequest(
  endpoint: JudgeEndpoint,
  request: JudgeRequest,
  clock: Clock,
): Promise<Exchange> {
  const taped = tapedJudgeRequest(request);
  const answers = await callModelApi({
    baseURL: endpoint.baseURL,
    path: request.path,
    api: request.model.api,
    headers: { ...taped.headers, ...authHeaders(request, endpoint.apiKey) },
    body: request.body,
    fetch: endpoint.fetch,
    timeoutMs: modelTimeoutFrom(process.env) ?? DEFAULT_MODEL_TIMEOUT_MS,
    deadlineFix: 'record and eval: --model-timeout SECONDS',
    clock,
    model: request.model.id,
    maxRetries: JUDGE_RETRIES,
  });
  const last = answers.at(-1)!;
  const exchange: Exchange = {
    request: taped,
    response: tapeResponse(last.status, last.headers, last.text, taped),
    latencyMs: last.latencyMs,
  };
  const retried = answers.slice(0, -1);
  if (retried.length > 0) {
    exchange.retries = retried.map(({ status, latencyMs }) => ({ status, latencyMs }));
  }
  return exchange;
}
