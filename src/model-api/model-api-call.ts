import type { Clock } from '../core/clock.js';
import { HarnessError, ModelApiError } from '../core/errors.js';
import { withCallDeadline } from './call-deadline.js';
import {
  CHAT_COMPLETIONS_API,
  cutAnswer,
  cutCause,
  deadlineError,
  MESSAGES_API,
  type ModelApiName,
  malformedAnswer,
  RESPONSES_API,
  unreachableApi,
} from './call-failure.js';
import { callWithRetries, type RetrySettings } from './retry-call.js';
import { isRetriedAnswer, type ModelApi } from './retryable-answer.js';

/** One answer of a model API as it came, before any client read it: what a recording keeps. */
export interface ApiAnswer {
  status: number;
  headers: Headers;
  text: string;
  latencyMs: number;
}

export interface ModelApiCallOptions extends RetrySettings {
  /** The base URL (`https://api.openai.com/v1`) and the path under it (`/responses`). */
  baseURL: string;
  path: string;
  api: ModelApi;
  /** Headers, credentials included, and the JSON body (never a stream). */
  headers: Record<string, string>;
  body: unknown;
  fetch: typeof globalThis.fetch;
  /** The deadline of one attempt, headers and body, and how it is changed (for its error). */
  timeoutMs: number;
  deadlineFix: string;
  /** Retry waits go through it. */
  clock: Clock;
  /** The deadline's clock (tests: a virtual one). Default: real timers. */
  deadlineClock?: Clock;
  /** Named in retry events. */
  model: string;
  signal?: AbortSignal;
}

const API_NAMES: Record<ModelApi, ModelApiName> = {
  messages: MESSAGES_API,
  chat_completions: CHAT_COMPLETIONS_API,
  responses: RESPONSES_API,
};

/**
 * One JSON call to a model API over `fetch`, for a caller that keeps the raw answer (a judge
 * records it): the model clients' deadline (call-deadline.ts) on each attempt, and their retry
 * policy (retry-call.ts: `x-should-retry`, 408/409/429/5xx, a malformed 2xx, a connection
 * failure; `retry-after-ms`, `retry-after` in seconds or as an HTTP date, else backoff).
 * Returns every answer in order, the retried ones first and the one the call ended with last
 * (an error status the policy does not retry, or that outlasted the retries, is an answer).
 * Throws a ModelApiError when the last attempt got no answer: unreachable, cut, past the deadline.
 */
export async function callModelApi(options: ModelApiCallOptions): Promise<ApiAnswer[]> {
  const { baseURL, api } = options;
  const name = API_NAMES[api];
  const url = `${baseURL.replace(/\/+$/, '')}${options.path}`;
  const init = { method: 'POST', headers: options.headers, body: JSON.stringify(options.body) };
  const answers: ApiAnswer[] = [];
  /** The failures that are answers: the call ends with them as answers, not as errors. */
  const answered = new WeakSet<Error>();
  const attempt = async () => {
    const answer = await withCallDeadline(
      { timeoutMs: options.timeoutMs, clock: options.deadlineClock, signal: options.signal },
      async (signal) => {
        const started = performance.now();
        const response = await options.fetch(url, { ...init, signal });
        const text = await response.text();
        const latencyMs = Math.round(performance.now() - started);
        return { status: response.status, headers: response.headers, text, latencyMs };
      },
      () => deadlineError(name, baseURL, options.timeoutMs, options.deadlineFix),
      (error) => failureOf(error, name, baseURL),
    );
    answers.push(answer);
    const retried = retriedAnswerError(answer, api, name, baseURL);
    if (retried === undefined) return answer;
    answered.add(retried);
    throw retried;
  };
  try {
    await callWithRetries(attempt, { ...options, model: options.model });
  } catch (error) {
    if (!(error instanceof Error && answered.has(error))) throw error;
  }
  return answers;
}

/** A failure before an answer: ours as it is (a refused simulator), else cut or unreachable. */
function failureOf(error: unknown, name: ModelApiName, baseURL: string): unknown {
  if (error instanceof HarnessError) return error;
  const cut = cutCause(error);
  return cut === undefined
    ? unreachableApi(name, baseURL, error)
    : cutAnswer(name, baseURL, cut, error);
}

/** The error a retried answer stands for (its status and headers for the retry policy), else undefined. */
function retriedAnswerError(
  answer: ApiAnswer,
  api: ModelApi,
  name: ModelApiName,
  baseURL: string,
): ModelApiError | undefined {
  const { status, headers } = answer;
  const body = parseJson(answer.text);
  const shouldRetry = headers.get('x-should-retry');
  if (!isRetriedAnswer({ status, shouldRetry, api, cut: false, stream: false, body })) {
    return undefined;
  }
  if (status >= 200 && status < 300) {
    return malformedAnswer(name, baseURL, 'the answer is not a complete one of its API');
  }
  return new ModelApiError(`${name.name} answered ${status}`, { status, headers });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
