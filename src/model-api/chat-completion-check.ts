import { valueKind, valueOrKind } from '../core/value-kind.js';
import {
  bodyProblem,
  idText,
  isJsonObject,
  stringProblem,
  tokenCountProblem,
} from './answer-fields.js';
import { statusOfErrorType } from './error-type-status.js';

/** Does this Chat Completions tool call carry an id of its own (a non-empty string)? */
export function hasCallId(call: { id?: unknown }): call is { id: string } {
  return typeof call.id === 'string' && call.id !== '';
}

/** The finish reasons of the Chat Completions API; another (`eos_token`, `error`) is a server speaking a different dialect, or a failed answer. */
export const FINISH_REASONS = [
  'stop',
  'length',
  'tool_calls',
  'content_filter',
  'function_call',
] as const;

/**
 * Is this a Chat Completions answer (the JSON body of `POST /chat/completions`)? The Chat
 * Completions twin of message-check.ts, as lenient: extra fields pass, only the first choice
 * is read (the adapter asks for one), `usage` may be absent (not every OpenAI-compatible
 * server sends it), and tool-call `arguments` need only be a string: text that is not JSON is
 * the model's mistake, which the adapter answers with a tool error the model can act on.
 */
export function chatCompletionProblem(value: unknown): string | undefined {
  const body = bodyProblem(value);
  if (body !== undefined) return body;
  const { choices, usage } = value as Record<string, unknown>;
  if (!Array.isArray(choices)) return `choices is ${valueKind(choices, 'missing')}, not an array`;
  const choice: unknown = choices[0];
  if (choices.length === 0) return 'choices is empty: no answer';
  if (!isJsonObject(choice)) return `choices[0] is ${valueKind(choice, 'missing')}, not an object`;
  return (
    assistantProblem(choice.message, 'choices[0].message') ??
    finishReasonProblem(choice.finish_reason) ??
    chatUsageProblem(usage)
  );
}

function assistantProblem(message: unknown, at: string): string | undefined {
  if (!isJsonObject(message)) return `${at} is ${valueKind(message, 'missing')}, not an object`;
  if (message.role !== 'assistant')
    return `${at}.role is ${valueOrKind(message.role)}, not 'assistant'`;
  const content = contentProblem(message.content, `${at}.content`);
  if (content !== undefined) return content;
  const calls = message.tool_calls;
  if (calls === undefined || calls === null) return undefined;
  if (!Array.isArray(calls)) return `${at}.tool_calls is ${valueKind(calls)}, not an array`;
  // Each tool message answers its call by id; a call without one is given one (withCallIds).
  const callAt = new Map<string, number>();
  for (let index = 0; index < calls.length; index += 1) {
    const problem = toolCallProblem(calls[index], `${at}.tool_calls[${index}]`);
    if (problem !== undefined) return problem;
    const call = calls[index] as { id?: unknown };
    if (!hasCallId(call)) continue;
    const { id } = call;
    const first = callAt.get(id);
    if (first !== undefined) {
      return `${at}.tool_calls[${index}].id ${idText(id)} is the id of ${at}.tool_calls[${first}] too: each tool call needs its own id`;
    }
    callAt.set(id, index);
  }
  return undefined;
}

function toolCallProblem(call: unknown, at: string): string | undefined {
  if (!isJsonObject(call)) return `${at} is ${valueKind(call, 'missing')}, not an object`;
  const id = stringProblem(call.id, `${at}.id`, true);
  if (id !== undefined) return id;
  if (call.type !== undefined && call.type !== 'function')
    return `${at}.type is ${valueOrKind(call.type)}, not 'function'`;
  const fn = call.function;
  if (!isJsonObject(fn)) return `${at}.function is ${valueKind(fn, 'missing')}, not an object`;
  return (
    stringProblem(fn.name, `${at}.function.name`) ??
    stringProblem(fn.arguments, `${at}.function.arguments`)
  );
}

/** Text, or null beside tool calls; absent counts as null. */
function contentProblem(content: unknown, at: string): string | undefined {
  if (content === undefined || content === null || typeof content === 'string') return undefined;
  return `${at} is ${valueOrKind(content)}, not a string or null`;
}

function finishReasonProblem(reason: unknown): string | undefined {
  if ((FINISH_REASONS as readonly unknown[]).includes(reason)) return undefined;
  return `choices[0].finish_reason is ${valueOrKind(reason)}, not one of ${FINISH_REASONS.join(', ')}`;
}

/** Absent is allowed; present, its counts are whole numbers >= 0 and the cached tokens are part of the prompt's. */
function chatUsageProblem(usage: unknown): string | undefined {
  if (usage === undefined || usage === null) return undefined;
  if (!isJsonObject(usage)) return `usage is ${valueKind(usage)}, not an object`;
  const counts =
    tokenCountProblem(usage.prompt_tokens, 'usage.prompt_tokens') ??
    tokenCountProblem(usage.completion_tokens, 'usage.completion_tokens');
  if (counts !== undefined) return counts;
  const details = usage.prompt_tokens_details;
  if (details === undefined || details === null) return undefined;
  if (!isJsonObject(details))
    return `usage.prompt_tokens_details is ${valueKind(details)}, not an object`;
  const cached = details.cached_tokens;
  const at = 'usage.prompt_tokens_details.cached_tokens';
  const count = tokenCountProblem(cached, at, true);
  if (count !== undefined) return count;
  if (typeof cached === 'number' && cached > (usage.prompt_tokens as number)) {
    return `${at} (${cached}) is more than usage.prompt_tokens (${usage.prompt_tokens as number})`;
  }
  return undefined;
}

/** What a Chat Completions stream assembles to, or why it does not. */
export interface ChatStreamVerdict {
  /** The answer in the shape of a JSON body, when the stream assembled to one that passes the check. */
  completion?: unknown;
  /** Why it is not an answer: a malformed chunk, no `[DONE]`, or an assembled answer that fails the check. */
  problem?: string;
  /** The error the server sent inside the stream (not malformed: the server said it failed). */
  error?: ChatStreamError;
}

/** An error a Chat Completions stream sent after its 200 (`data: {"error": {...}}` or `event: error`). */
export interface ChatStreamError {
  /** The server's words: `error.message`, else the chunk as it came. Quote it through serverText. */
  detail: string;
  /** `error.type`, when it is a string. */
  type?: string;
  /** `error.code` (else `error.status`) as the server sent it: a status, or a word such as `context_length_exceeded`. */
  code?: string;
  /**
   * The HTTP status the error stands for: named in `code` or `status` (vLLM's `code: 400`,
   * LiteLLM's `code: "400"`), else by its type as the Messages API's (`invalid_request_error`:
   * 400, `rate_limit_error`: 429), else `code: context_length_exceeded` (400); undefined when
   * nothing names one (retried like a dropped connection).
   */
  status?: number;
}

interface AssembledCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/**
 * Fold a Chat Completions stream's `data:` chunks into one answer the way clients do (content
 * and tool-call deltas joined, by tool-call index; the usage chunk last), checking each chunk
 * and then the assembled answer with chatCompletionProblem. Used by the client on what it
 * read and by the recording tape on what it taped, so both call the same answers malformed.
 */
export function chatStreamVerdict(
  events: ReadonlyArray<{ event: string; data: unknown }>,
): ChatStreamVerdict {
  let content: string | null = null;
  const calls: AssembledCall[] = [];
  let finishReason: unknown = null;
  let usage: unknown;
  let number = 0;
  for (const { event, data } of events) {
    number += 1;
    if (data === '[DONE]') {
      const completion = {
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content,
              // Ids missing stay empty: the client gives them, knowing the request (runtime/tool-call-ids.ts).
              ...(calls.length > 0 && { tool_calls: calls }),
            },
            finish_reason: finishReason,
          },
        ],
        ...(usage !== undefined && { usage }),
      };
      const problem = chatCompletionProblem(completion);
      return problem === undefined ? { completion } : { problem };
    }
    if (event === 'error' || (isJsonObject(data) && data.error))
      return { error: streamError(data) };
    const chunk = `data chunk ${number}`;
    if (typeof data === 'string') return { problem: `${chunk} is not JSON` };
    if (!isJsonObject(data))
      return { problem: `${chunk} is ${valueKind(data)}, not a JSON object` };
    if (data.usage !== undefined && data.usage !== null) usage = data.usage;
    const choices = data.choices;
    if (choices === undefined || choices === null) continue;
    if (!Array.isArray(choices))
      return { problem: `${chunk}: choices is ${valueKind(choices)}, not an array` };
    const choice: unknown = choices[0];
    if (choice === undefined) continue;
    if (!isJsonObject(choice))
      return { problem: `${chunk}: choices[0] is ${valueKind(choice)}, not an object` };
    if (choice.finish_reason !== undefined && choice.finish_reason !== null)
      finishReason = choice.finish_reason;
    const delta = choice.delta;
    if (delta === undefined || delta === null) continue;
    if (!isJsonObject(delta))
      return { problem: `${chunk}: choices[0].delta is ${valueKind(delta)}, not an object` };
    const text = contentProblem(delta.content, 'choices[0].delta.content');
    if (text !== undefined) return { problem: `${chunk}: ${text}` };
    if (typeof delta.content === 'string') content = (content ?? '') + delta.content;
    const parts = delta.tool_calls;
    if (parts === undefined || parts === null) continue;
    if (!Array.isArray(parts))
      return {
        problem: `${chunk}: choices[0].delta.tool_calls is ${valueKind(parts)}, not an array`,
      };
    for (let index = 0; index < parts.length; index += 1) {
      const problem = foldToolCall(calls, parts[index], `choices[0].delta.tool_calls[${index}]`);
      if (problem !== undefined) return { problem: `${chunk}: ${problem}` };
    }
  }
  return { problem: 'the stream ended before data: [DONE]' };
}

function streamError(data: unknown): ChatStreamError {
  const error = isJsonObject(data) && isJsonObject(data.error) ? data.error : data;
  if (!isJsonObject(error))
    return { detail: typeof data === 'string' ? data : JSON.stringify(data) };
  const { code, type } = error;
  const status =
    httpStatusIn(code) ??
    httpStatusIn(error.status) ??
    statusOfErrorType(type) ??
    (code === 'context_length_exceeded' ? 400 : undefined);
  const shown = [code, error.status].find(
    (value) => typeof value === 'string' || typeof value === 'number',
  );
  return {
    detail: typeof error.message === 'string' ? error.message : JSON.stringify(data),
    ...(typeof type === 'string' && { type }),
    ...(shown !== undefined && { code: String(shown) }),
    ...(status !== undefined && { status }),
  };
}

/** An HTTP error status (400-599) as a number or a numeric string (LiteLLM's `code: "400"`). */
function httpStatusIn(value: unknown): number | undefined {
  const status = typeof value === 'string' && /^\d{3}$/.test(value) ? Number(value) : value;
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 600
    ? status
    : undefined;
}

/** Add one tool-call delta to `calls`; its index is an existing call's or the next one's (never `__proto__`, never a gap). */
function foldToolCall(calls: AssembledCall[], part: unknown, at: string): string | undefined {
  if (!isJsonObject(part)) return `${at} is ${valueKind(part, 'missing')}, not an object`;
  const { index } = part;
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index > calls.length) {
    const range = calls.length === 0 ? '0' : `0 to ${calls.length}`;
    return `${at}.index is ${valueOrKind(index)}, not the index of a tool call (${range})`;
  }
  const fn = part.function;
  if (fn !== undefined && fn !== null && !isJsonObject(fn))
    return `${at}.function is ${valueKind(fn)}, not an object`;
  const { name, arguments: args } = (fn ?? {}) as Record<string, unknown>;
  const problem =
    stringProblem(part.id, `${at}.id`, true) ??
    stringProblem(name, `${at}.function.name`, true) ??
    stringProblem(args, `${at}.function.arguments`, true);
  if (problem !== undefined) return problem;
  calls[index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } };
  const call = calls[index]!;
  if (typeof part.id === 'string' && part.id !== '') call.id = part.id;
  if (typeof name === 'string') call.function.name += name;
  if (typeof args === 'string') call.function.arguments += args;
  return undefined;
}
