import { ModelApiError } from '../core/errors.js';
import { shownUrl } from '../core/shown-url.js';
import {
  checkCallTimeout,
  DEFAULT_MODEL_TIMEOUT_MS,
  withCallDeadline,
} from '../model-api/call-deadline.js';
import {
  cutAnswer,
  cutCause,
  deadlineError,
  type ModelApiName,
  serverText,
  unreachableApi,
} from '../model-api/call-failure.js';
import { HARNESS_EVALS_USER_AGENT } from './client-name.js';

export interface ModelPost {
  api: ModelApiName;
  /** How an error status names the API: `chat completions`, `the Responses API`. */
  label: string;
  /** The path under the base URL, e.g. `/responses`. */
  path: string;
  fetch: typeof fetch;
  baseURL: string;
  apiKey: string;
  body: unknown;
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  /** How the deadline is changed, for its error. */
  deadlineFix: string;
}

/**
 * One POST of a JSON body to an OpenAI API with plain fetch, the whole answer read within the
 * call's deadline (headers and body). A failed fetch is a cut or unreachable ModelApiError (an
 * abort, or a replay's refusal, as it came); an error status is a ModelApiError with the
 * server's words quoted through serverText. The clients of Chat Completions and the Responses
 * API both send with it.
 */
export async function postToModelApi(
  post: ModelPost,
): Promise<{ response: Response; text: string }> {
  const { api, baseURL, signal } = post;
  const timeoutMs = checkCallTimeout(post.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS);
  const { response, text } = await withCallDeadline(
    { timeoutMs, signal },
    async (callSignal) => {
      const response = await post.fetch(`${baseURL.replace(/\/+$/, '')}${post.path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${post.apiKey}`,
          'user-agent': HARNESS_EVALS_USER_AGENT,
        },
        body: JSON.stringify(post.body),
        signal: callSignal,
      });
      return { response, text: await response.text() };
    },
    () => deadlineError(api, baseURL, timeoutMs, post.deadlineFix),
    (error) => fetchFailure(api, error, baseURL, signal),
  );
  if (!response.ok) {
    throw new ModelApiError(
      `${post.label} at ${shownUrl(baseURL)} answered ${response.status}: ${serverText(text, post.apiKey)}`,
      { status: response.status, headers: response.headers },
    );
  }
  return { response, text };
}

/**
 * A fetch that failed: a body cut off, or a host that cannot be reached, as the Messages
 * API's client reports them (and the retry policy retries them); an abort or any other
 * error (a replay's refusal) as it came.
 */
function fetchFailure(
  api: ModelApiName,
  error: unknown,
  baseURL: string,
  signal: AbortSignal | undefined,
): unknown {
  if (signal?.aborted) return error;
  const cut = cutCause(error);
  if (cut !== undefined) return cutAnswer(api, baseURL, cut, error);
  if (error instanceof TypeError && error.message === 'fetch failed')
    return unreachableApi(api, baseURL, error);
  return error;
}
