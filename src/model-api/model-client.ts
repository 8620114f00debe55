import type Anthropic from '@anthropic-ai/sdk';
// The SDK's error classes alone: the client (and its ~270 modules) loads only when a client is built.
import {
  AnthropicError,
  APIConnectionError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
} from '@anthropic-ai/sdk/core/error';
import type { Clock } from '../core/clock.js';
import { errorMessage, HarnessError, ModelApiError } from '../core/errors.js';
import { shownUrl } from '../core/shown-url.js';
import { checkCallTimeout, DEFAULT_MODEL_TIMEOUT_MS, withCallDeadline } from './call-deadline.js';
import {
  cutAnswer,
  cutCause,
  deadlineError,
  MESSAGES_API,
  malformedAnswer,
  serverText,
  unreachableApi,
} from './call-failure.js';
import { statusOfErrorType } from './error-type-status.js';
import { messageProblem } from './message-check.js';

// The deadline's settings live with the deadline (no SDK to load for a CLI that checks them).
export {
  DEFAULT_MODEL_TIMEOUT_MS,
  MODEL_TIMEOUT_ENV,
  modelTimeoutFrom,
  parseModelTimeout,
} from './call-deadline.js';

export type MessageRequest = Anthropic.MessageCreateParamsNonStreaming;
export type Message = Anthropic.Message;

/** What the model layer reports while it works on one call (the loop writes it to the trace). */
export type ModelEvent =
  | {
      type: 'model_retry';
      model: string;
      /** 1 for the first retry. */
      attempt: number;
      /** The HTTP status, when there was one (none for a connection failure). */
      status?: number;
      error: string;
      /** How long the call waited before retrying (retry-after, else backoff). */
      wait_ms: number;
    }
  | {
      type: 'model_fallback';
      from: string;
      to: string;
      reason: 'overloaded' | 'refusal' | 'unavailable';
    };

export interface ModelCallOptions {
  signal?: AbortSignal;
  /** Called for each retry and fallback of this call. */
  onEvent?: (event: ModelEvent) => void;
  /**
   * Asked after each event, before the call spends more (a wait, another attempt, a fallback
   * model): an error it answers with ends the call, thrown as it is. The run loop answers with
   * its trace's failure, so a call whose events cannot be written stops there.
   */
  stopAfterEvent?: () => Promise<Error | undefined>;
}

/** The one thing the loop needs from a model: a request in, a message out. */
export interface ModelClient {
  createMessage(request: MessageRequest, options?: ModelCallOptions): Promise<Message>;
}

/** How a Messages API call's deadline is changed. */
const MESSAGES_DEADLINE_FIX =
  "agent and record: --model-timeout SECONDS; library: createAnthropicModel's timeoutMs";

/**
 * Wrap an `@anthropic-ai/sdk` client. With `stream`, requests go out as SSE
 * (`messages.stream().finalMessage()`), which is what long live calls want.
 * Every answer is checked at this boundary (message-check.ts): a body that is not a message
 * is a `ModelApiError` of kind `malformed_response`, never a half-read object. Each call has
 * a deadline on the whole call, headers and body (the SDK's own timeout stops at the headers),
 * so a body dripped a byte a second or a stream of pings cannot hang a run.
 * SDK failures become one-line `ModelApiError`s that say what to check.
 */
export function createAnthropicModel(options: {
  client: Anthropic;
  stream?: boolean;
  /** Extra headers on every request (e.g. to route a shared client's calls to one replay session). */
  headers?: Record<string, string>;
  /** The deadline of one call (one attempt), headers and body. Default 600 000 ms (10 minutes). */
  timeoutMs?: number;
  /** The deadline's clock (tests: a virtual one). Default: real timers. */
  clock?: Clock;
}): ModelClient {
  const { client } = options;
  const timeoutMs = checkCallTimeout(options.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS);
  const stream = options.stream === true;
  return {
    async createMessage(request, callOptions) {
      const message: unknown = await withCallDeadline(
        { timeoutMs, clock: options.clock, signal: callOptions?.signal },
        (signal) => {
          const requestOptions = { signal, ...(options.headers && { headers: options.headers }) };
          return stream
            ? client.messages.stream(request, requestOptions).finalMessage()
            : client.messages.create(request, requestOptions);
        },
        () => deadlineError(MESSAGES_API, client.baseURL, timeoutMs, MESSAGES_DEADLINE_FIX),
        (error) => callError(error, client.baseURL, stream, client.apiKey ?? ''),
      );
      const problem = messageProblem(message);
      if (problem !== undefined) throw malformedAnswer(MESSAGES_API, client.baseURL, problem);
      return message as Message;
    },
  };
}

/**
 * A failure once the call was sent: a body cut off (the socket closed mid-way), a body or
 * stream event that is not JSON, a stream the SDK could not assemble; else toModelApiError.
 */
function callError(
  error: unknown,
  baseURL: string,
  stream: boolean,
  apiKey: string,
): ModelApiError {
  if (error instanceof ModelApiError || error instanceof APIError) {
    return toModelApiError(error, baseURL, apiKey);
  }
  const cut = cutCause(error);
  if (cut !== undefined) return cutAnswer(MESSAGES_API, baseURL, cut, error);
  if (error instanceof SyntaxError) {
    return malformedAnswer(
      MESSAGES_API,
      baseURL,
      stream ? 'a stream event is not valid JSON' : 'the body is not valid JSON',
      error,
    );
  }
  // What the SDK's stream assembler throws: events out of order, a stream without message_stop.
  if (stream && (error instanceof AnthropicError || error instanceof TypeError)) {
    return malformedAnswer(
      MESSAGES_API,
      baseURL,
      `the stream does not assemble to a message (${errorMessage(error)})`,
      error,
    );
  }
  return toModelApiError(error, baseURL, apiKey);
}

/**
 * One line for a failed Messages API call. The server's own words are quoted through
 * serverText: the key the call sent masked (`apiKey`; a gateway may echo the request),
 * every known credential masked, cut to 300 characters, control characters shown inert.
 */
export function toModelApiError(error: unknown, baseURL: string, apiKey = ''): ModelApiError {
  if (error instanceof ModelApiError) return error;
  if (error instanceof AuthenticationError) {
    return new ModelApiError(
      `authentication failed (401) at ${shownUrl(baseURL)}: check ANTHROPIC_API_KEY`,
      {
        cause: error,
        status: 401,
      },
    );
  }
  if (error instanceof APIConnectionError) {
    // Our own fetch wrapper refused the response (e.g. a simulator met while recording live): say that.
    const ours = harnessCause(error);
    if (ours) return new ModelApiError(ours.message, { cause: error });
    return unreachableApi(MESSAGES_API, baseURL, error);
  }
  if (error instanceof APIUserAbortError) {
    return new ModelApiError(`the model call was cancelled: ${error.message}`, { cause: error });
  }
  if (error instanceof APIError) {
    const body = error.error as { error?: { type?: string; message?: string } } | undefined;
    const detail = serverText(body?.error?.message ?? error.message, apiKey);
    const type = body?.error?.type;
    if (error.status === undefined) {
      // An `error` event inside a 200 stream: it stands for the status of its type (overloaded_error: 529).
      const status = statusOfErrorType(type);
      const meaning = status === undefined ? '' : `, treated as ${status}`;
      return new ModelApiError(
        `Messages API error ${type ?? 'without a type'} (sent in the stream${meaning}): ${detail}`,
        { cause: error, ...(status !== undefined && { status }) },
      );
    }
    return new ModelApiError(
      `Messages API error ${error.status}${type ? ` ${type}` : ''}: ${detail}`,
      {
        cause: error,
        status: error.status,
      },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ModelApiError(`model call failed: ${message}`, { cause: error });
}

function harnessCause(error: Error): HarnessError | undefined {
  let current: unknown = error.cause;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (current instanceof HarnessError) return current;
    current = current.cause;
  }
  return undefined;
}
