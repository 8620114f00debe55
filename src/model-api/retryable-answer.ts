import { chatCompletionProblem } from './chat-completion-check.js';
import { foldChatStream } from './chat-stream.js';
import { statusOfErrorType } from './error-type-status.js';
import { messageProblem } from './message-check.js';
import { foldMessagesStream } from './messages-stream.js';
import { responseProblem } from './responses-check.js';
import { foldResponsesStream } from './responses-stream.js';

/**
 * "This answer is retried": one definition for the retry layer (retry-policy.ts, on the error
 * a call ended with) and the recording tape (replay/tape.ts, on the raw answer it taped), so a
 * cassette never keeps as data an answer the client retried past, nor folds one it acted on.
 *
 * - A non-2xx answer: `x-should-retry: true | false` when the server sent it, else the status
 *   (408, 409, 429, 5xx; 529 is overloaded), as the SDK decides.
 * - A 2xx answer whose body was cut off: like a dropped connection, retried.
 * - A 2xx answer of the Messages API that is not a message (a gateway's HTML page, `null`,
 *   `content` as a string, usage counts as strings), or of Chat Completions that is not a chat
 *   completion (no choices, `content` a number, an unknown finish_reason): like a gateway's
 *   502, retried.
 * - A 2xx stream that sent an `error` event: as the status its error type stands for
 *   (`overloaded_error` as 529, `api_error` as 500, `invalid_request_error` as 400).
 * - A 2xx stream that ends before `message_stop` (Chat Completions: `data: [DONE]`), or whose
 *   events do not assemble to an answer: malformed, retried.
 * - A 2xx Chat Completions stream that sent an error: like a dropped connection, retried,
 *   unless the error stands for a status (`code` or `status` naming one, a type the Messages
 *   API also uses, `code: context_length_exceeded`; chat-stream.ts): then as it.
 * - A 2xx Responses API answer that is not a response (no output array, an unknown status), or
 *   a stream of it that ends before its terminal event, sends an `error` event or a failed
 *   response: as the status its error code stands for (responses-stream.ts), else retried.
 * - A 2xx answer that does not parse in the format the request asked for: malformed, retried.
 *   The request decides a stream, as both SDKs read it: the tape reads a 2xx answer to
 *   `stream: true` as SSE whatever its content type (`text/plain`, none), so JSON there
 *   assembles to no answer. Without a stream, Chat Completions' answer as JSON, so a stream
 *   there is no completion; a Messages API answer as JSON only when labelled `application/json`
 *   or `+json` (as `@anthropic-ai/sdk` reads it), else as its text, which is no message.
 * `x-should-retry` is not read on a 2xx: the client never sees the headers of a 2xx it refuses.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** A non-2xx answer: the server's `x-should-retry` when it sent one, else the status. */
export function isRetryableErrorAnswer(
  status: number,
  shouldRetry: string | null | undefined,
): boolean {
  if (shouldRetry === 'true') return true;
  if (shouldRetry === 'false') return false;
  return isRetryableStatus(status);
}

/** The model APIs whose answers are judged. */
export type ModelApi = 'messages' | 'chat_completions' | 'responses';

/** Which model API a request goes to, by its method and path; undefined for any other. */
export function modelApiOf(method: string, path: string): ModelApi | undefined {
  if (method !== 'POST') return undefined;
  if (/\/chat\/completions(\?|$)/.test(path)) return 'chat_completions';
  if (/\/messages(\?|$)/.test(path)) return 'messages';
  if (/\/responses(\?|$)/.test(path)) return 'responses';
  return undefined;
}

export interface TapedAnswer {
  status: number;
  /** The `x-should-retry` response header, null when absent. */
  shouldRetry: string | null;
  /** Which API answered: a 2xx body of `messages` must be a message, of `chat_completions` a chat completion. Other APIs' bodies are not judged. */
  api: ModelApi | undefined;
  /** The body was cut off before it was complete. */
  cut: boolean;
  /** The request asked for a stream (`stream: true`): the one source both clients decide from. */
  stream: boolean;
  body?: unknown;
  events?: ReadonlyArray<{ event: string; data: unknown }>;
}

/** Would the client have retried this answer? (See the rules above.) */
export function isRetriedAnswer(answer: TapedAnswer): boolean {
  if (answer.status < 200 || answer.status >= 300) {
    return isRetryableErrorAnswer(answer.status, answer.shouldRetry);
  }
  if (answer.cut) return true;
  if (answer.api === undefined) return false;
  // The tape reads a 2xx answer in the requested format; this guards a caller that did not.
  if ((answer.events !== undefined) !== answer.stream) return true;
  if (answer.api === 'responses') {
    if (!answer.events) return responseProblem(answer.body) !== undefined;
    const verdict = foldResponsesStream(answer.events);
    if (verdict.error?.status !== undefined) return isRetryableStatus(verdict.error.status);
    return verdict.error !== undefined || verdict.problem !== undefined;
  }
  if (answer.api === 'chat_completions') {
    if (!answer.events) return chatCompletionProblem(answer.body) !== undefined;
    const verdict = foldChatStream(answer.events);
    if (verdict.error?.status !== undefined) return isRetryableStatus(verdict.error.status);
    return verdict.error !== undefined || verdict.problem !== undefined;
  }
  if (answer.events) {
    const verdict = foldMessagesStream(answer.events);
    if (verdict.errorType !== undefined) {
      const status = statusOfErrorType(verdict.errorType);
      return status !== undefined && isRetryableStatus(status);
    }
    return verdict.problem !== undefined;
  }
  return messageProblem(answer.body) !== undefined;
}
