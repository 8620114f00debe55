import { ModelApiError } from '../core/errors.js';
import { parseSseEvents } from '../replay/sse.js';
import type { TokenUsage } from './types.js';
import { chatCompletionsUsage } from './usage.js';

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
}

/**
 * One `POST {baseURL}/chat/completions` with plain fetch, JSON or (`body.stream`) SSE
 * (`data: {...}` chunks ending in `data: [DONE]`); both give the same result shape.
 *
 * @example
 * const { message, usage } = await createChatCompletion({ fetch, baseURL, apiKey,
 *   body: { model: 'qwen3', messages: [{ role: 'user', content: 'Hi' }] } });
 */
export async function createChatCompletion(
  options: ChatCompletionOptions,
): Promise<ChatCompletionResult> {
  const { body } = options;
  const response = await options.fetch(`${options.baseURL.replace(/\/+$/, '')}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${options.apiKey}` },
    body: JSON.stringify(body.stream ? { ...body, stream_options: { include_usage: true } } : body),
    ...(options.signal && { signal: options.signal }),
  });
  const text = await response.text();
  if (!response.ok) {
    throw new ModelApiError(
      `chat completions at ${options.baseURL} answered ${response.status}: ${text.slice(0, 300)}`,
      { status: response.status },
    );
  }
  return body.stream ? readStream(text) : readJson(text);
}

function readJson(text: string): ChatCompletionResult {
  let json: {
    choices?: Array<{ message?: ChatAssistantMessage; finish_reason?: string | null }>;
    usage?: unknown;
  };
  try {
    json = JSON.parse(text);
  } catch {
    throw new ModelApiError(
      `chat completions answered with a body that is not JSON: ${text.slice(0, 200)}`,
    );
  }
  const choice = json?.choices?.[0];
  if (!choice?.message) throw new ModelApiError('chat completions answered without a choice');
  return {
    message: choice.message,
    finishReason: choice.finish_reason ?? null,
    usage: chatCompletionsUsage(json.usage),
  };
}

interface ChunkDelta {
  content?: string | null;
  tool_calls?: Array<{
    index: number;
    id?: string;
    function?: { name?: string; arguments?: string };
  }>;
}

/** Fold the streamed deltas into one message; the usage chunk (include_usage) comes last. */
export function readStream(text: string): ChatCompletionResult {
  let content: string | null = null;
  const calls: ChatToolCall[] = [];
  let finishReason: string | null = null;
  let usage: Partial<TokenUsage> = {};
  let done = false;
  for (const { event, data } of parseSseEvents(text)) {
    if (data === '[DONE]') {
      done = true;
      break;
    }
    if (typeof data !== 'object' || data === null) {
      throw new ModelApiError(
        `chat completions streamed data that is not JSON: ${String(data).slice(0, 200)}`,
      );
    }
    const chunk = data as {
      choices?: Array<{ delta?: ChunkDelta; finish_reason?: string | null }>;
      usage?: unknown;
      error?: { message?: unknown };
    };
    if (event === 'error' || chunk.error) {
      throw new ModelApiError(
        `chat completions streamed an error: ${String(chunk.error?.message ?? JSON.stringify(data)).slice(0, 300)}`,
      );
    }
    if (chunk.usage) usage = chatCompletionsUsage(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    if (choice.finish_reason) finishReason = choice.finish_reason;
    if (typeof choice.delta?.content === 'string') content = (content ?? '') + choice.delta.content;
    for (const part of choice.delta?.tool_calls ?? []) {
      calls[part.index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } };
      const call = calls[part.index]!;
      if (part.id) call.id = part.id;
      if (part.function?.name) call.function.name += part.function.name;
      if (part.function?.arguments) call.function.arguments += part.function.arguments;
    }
  }
  // A stream cut off before [DONE] holds a partial answer; it must not pass as a whole one.
  if (!done) throw new ModelApiError('chat completions stream ended before data: [DONE]');
  const message: ChatAssistantMessage = { role: 'assistant', content };
  if (calls.length > 0) message.tool_calls = calls;
  return { message, finishReason, usage };
}
