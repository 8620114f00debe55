import { ModelApiError } from '../core/errors.js';
import { shownUrl } from '../core/shown-url.js';
import { CHAT_COMPLETIONS_API, malformedAnswer, serverText } from '../model-api/call-failure.js';
import { chatCompletionProblem } from '../model-api/chat-completion-check.js';
import { type ChatStreamError, foldChatStream } from '../model-api/chat-stream.js';
import { isEventStream, parseSseEvents } from '../model-api/sse.js';
import type { TokenUsage } from '../model-api/token-usage.js';
import { withCallIds } from '../model-api/tool-call-ids.js';
import { postToModelApi } from './openai-post.js';
import { chatCompletionsUsage } from './usage.js';

/** How a Chat Completions call's deadline is changed. */
const CHAT_DEADLINE_FIX =
  "record: --model-timeout SECONDS; library: createChatCompletionsAgent's timeoutMs";

/** An assistant message of the Chat Completions API. */
export interface ChatAssistantMessage {
  role: 'assistant';
  content: string | null;
  tool_calls?: ChatToolCall[];
}

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | ChatAssistantMessage
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  tools?: Array<{
    type: 'function';
    function: { name: string; description?: string; parameters: unknown };
  }>;
  max_tokens?: number;
  temperature?: number;
  stream?: boolean;
}

export interface ChatCompletionResult {
  message: ChatAssistantMessage;
  finishReason: string | null;
  usage: Partial<TokenUsage>;
}

export interface ChatCompletionOptions {
  fetch: typeof fetch;
  /** e.g. `https://api.openai.com/v1` or `http://127.0.0.1:8000/v1` (vLLM, llama.cpp, Ollama). */
  baseURL: string;
  apiKey: string;
  body: ChatCompletionRequest;
  signal?: AbortSignal;
  /** The deadline of the call, headers and body. Default 600 000 ms (10 minutes). */
  timeoutMs?: number;
}

/**
 * One `POST {baseURL}/chat/completions` with plain fetch, JSON or (`body.stream`) SSE
 * (`data: {...}` chunks ending in `data: [DONE]`); both give the same result shape.
 * The request alone decides how the answer is read (`stream: true`: SSE whatever the content
 * type, as both SDKs read it). Every answer is checked at this boundary
 * (chat-completion-check.ts): one that is not a chat completion, or does not parse in the
 * format `body.stream` asked for, is a `ModelApiError` of kind `malformed_response`, which the
 * retry policy retries like a gateway's 502, never a half-read object. Text the server sent is quoted through serverText (key masked).
 *
 * @example
 * const { message, usage } = await createChatCompletion({ fetch, baseURL, apiKey,
 *   body: { model: 'qwen3', messages: [{ role: 'user', content: 'Hi' }] } });
 */
export async function createChatCompletion(
  options: ChatCompletionOptions,
): Promise<ChatCompletionResult> {
  const { body, baseURL } = options;
  const { response, text } = await postToModelApi({
    api: CHAT_COMPLETIONS_API,
    label: 'chat completions',
    path: '/chat/completions',
    ...options,
    body: body.stream ? { ...body, stream_options: { include_usage: true } } : body,
    deadlineFix: CHAT_DEADLINE_FIX,
  });
  // The request alone decides how the answer is read, as the recording tape does for Chat Completions.
  const contentType = response.headers.get('content-type');
  return body.stream === true
    ? readStream(text, baseURL, options.apiKey, contentType, body.messages)
    : readJson(text, baseURL, contentType, body.messages);
}

/**
 * A hint for an answer that failed to parse in the format the request asked for, when its
 * content type says it came in the other one; empty when the content type agrees.
 */
function formatHint(stream: boolean, contentType: string | null | undefined): string {
  if (contentType === undefined || isEventStream(contentType) === stream) return '';
  const media = contentType?.split(';')[0]?.trim().toLowerCase();
  const shown =
    media === undefined || media === ''
      ? 'has no content type'
      : // The server's header, so only a plain media type is quoted.
        `is ${/^[\w.+-]{1,64}\/[\w.+-]{1,64}$/.test(media) ? media : 'of an unreadable content type'}`;
  return stream
    ? ` (the request asked for a stream (stream: true); the answer ${shown}, not text/event-stream)`
    : ' (the request asked for one JSON body (no stream); the answer is text/event-stream)';
}

/** The body read as the recording tape reads it (JSON when it parses, else the text; null when empty), so both judge an answer alike. */
function readJson(
  text: string,
  baseURL: string,
  contentType: string | null,
  sent: readonly ChatMessage[],
): ChatCompletionResult {
  let body: unknown = null;
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  const problem = chatCompletionProblem(body);
  if (problem !== undefined) {
    throw malformedAnswer(CHAT_COMPLETIONS_API, baseURL, problem + formatHint(false, contentType));
  }
  return resultOf(body as CheckedCompletion, sent);
}

/**
 * Fold the streamed chunks into one answer (model-api/chat-stream.ts), checked as a JSON body
 * is, whatever the content type (it only shapes the hint of a malformed answer). An error the
 * server sent in the stream is a `stream_error`, retried like a dropped connection unless it
 * names a status the retry policy does not retry. `sent`: the request's messages, so a call
 * without an id gets one none of them has.
 */
export function readStream(
  text: string,
  baseURL: string,
  apiKey = '',
  contentType?: string | null,
  sent: readonly ChatMessage[] = [],
): ChatCompletionResult {
  const verdict = foldChatStream(parseSseEvents(text));
  if (verdict.error !== undefined) throw streamError(verdict.error, baseURL, apiKey);
  if (verdict.problem !== undefined || verdict.completion === undefined) {
    const problem = (verdict.problem ?? 'no answer') + formatHint(true, contentType);
    throw malformedAnswer(CHAT_COMPLETIONS_API, baseURL, problem);
  }
  return resultOf(verdict.completion as CheckedCompletion, sent);
}

function streamError(error: ChatStreamError, baseURL: string, apiKey: string): ModelApiError {
  const { type, code, status } = error;
  const named = [type, code !== undefined && `code ${code}`].filter(Boolean).join(', ');
  const said = serverText(`${named ? ` (${named})` : ''}: ${error.detail}`, apiKey);
  return new ModelApiError(
    `${CHAT_COMPLETIONS_API.name} at ${shownUrl(baseURL)} sent an error inside its stream${said}; the server failed mid-answer: check its logs, or the gateway in between`,
    { kind: 'stream_error', ...(status !== undefined && { status }) },
  );
}

/** A body chatCompletionProblem passed. */
interface CheckedCompletion {
  choices: [{ message: ChatAssistantMessage; finish_reason: string }];
  usage?: unknown;
}

/** The answer to a request that sent `sent`; a call without an id gets one unique among them (tool-call-ids.ts). */
function resultOf(
  completion: CheckedCompletion,
  sent: readonly ChatMessage[],
): ChatCompletionResult {
  const [{ message, finish_reason }] = completion.choices;
  return {
    message: message.tool_calls
      ? { ...message, tool_calls: withCallIds(message.tool_calls, sent) }
      : message,
    finishReason: finish_reason,
    usage: chatCompletionsUsage(completion.usage),
  };
}
