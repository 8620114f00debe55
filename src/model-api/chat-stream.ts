import { valueKind, valueOrKind } from '../core/value-kind.js';
import { isJsonObject, stringProblem } from './answer-fields.js';
import { chatCompletionProblem, contentProblem } from './chat-completion-check.js';
import { statusOfErrorType } from './error-type-status.js';
import type { SseEvent } from './sse.js';
import { StreamedStrings } from './streamed-strings.js';

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

/** What a Chat Completions stream adds up to (foldChatStream): the client's verdict, and the text every choice streamed. */
export interface ChatStream extends ChatStreamVerdict {
  /**
   * Every string the chunks carried, joined per place in stream order (StreamedStrings): per
   * choice index and field (`choice 0 delta.content`, `choice 0 delta.reasoning`, `choice 0
   * delta.tool_calls[1].function.arguments`, any field a server adds), and the chunks' other
   * fields (`chunk id`), in any chunk and whatever the client makes of them: the text a secret
   * split across chunks adds up to.
   */
  streamedText: Map<string, string>;
}

/**
 * Fold a Chat Completions stream's `data:` chunks into one answer the way clients do (content
 * and tool-call deltas joined, by tool-call index; the usage chunk last), checking each chunk
 * and then the assembled answer with chatCompletionProblem. The one fold of the project: the
 * client reads what it received with it, the recording tape judges what it taped, the
 * transcript shows it, and the secret scan reads its streamed text, so all of them call the
 * same answers malformed.
 */
export function foldChatStream(events: readonly SseEvent[]): ChatStream {
  const fold: Fold = { content: null, calls: [], finishReason: null, usage: undefined };
  const streamed = new StreamedStrings();
  let verdict: ChatStreamVerdict | undefined;
  for (const [at, { event, data }] of events.entries()) {
    addStreamedText(streamed, data);
    verdict ??= addChunk(fold, event, data, `data chunk ${at + 1}`);
  }
  return {
    ...(verdict ?? { problem: 'the stream ended before data: [DONE]' }),
    streamedText: streamed.texts(),
  };
}

/** The answer so far, as the first choice's deltas build it. */
interface Fold {
  content: string | null;
  calls: AssembledCall[];
  finishReason: unknown;
  usage: unknown;
}

/** Add one chunk; the verdict when the stream is settled there ([DONE], an error, a malformed chunk), else undefined. */
function addChunk(
  fold: Fold,
  event: string,
  data: unknown,
  chunk: string,
): ChatStreamVerdict | undefined {
  if (data === '[DONE]') return completed(fold);
  if (event === 'error' || (isJsonObject(data) && data.error)) return { error: streamError(data) };
  if (typeof data === 'string') return { problem: `${chunk} is not JSON` };
  if (!isJsonObject(data)) return { problem: `${chunk} is ${valueKind(data)}, not a JSON object` };
  if (data.usage !== undefined && data.usage !== null) fold.usage = data.usage;
  const choices = data.choices;
  if (choices === undefined || choices === null) return undefined;
  if (!Array.isArray(choices))
    return { problem: `${chunk}: choices is ${valueKind(choices)}, not an array` };
  const choice: unknown = choices[0];
  if (choice === undefined) return undefined;
  if (!isJsonObject(choice))
    return { problem: `${chunk}: choices[0] is ${valueKind(choice)}, not an object` };
  if (choice.finish_reason !== undefined && choice.finish_reason !== null)
    fold.finishReason = choice.finish_reason;
  const delta = choice.delta;
  if (delta === undefined || delta === null) return undefined;
  if (!isJsonObject(delta))
    return { problem: `${chunk}: choices[0].delta is ${valueKind(delta)}, not an object` };
  const problem = addDelta(fold, delta);
  return problem === undefined ? undefined : { problem: `${chunk}: ${problem}` };
}

/** The first choice's delta: its text, and its tool-call parts by index. */
function addDelta(fold: Fold, delta: Record<string, unknown>): string | undefined {
  const text = contentProblem(delta.content, 'choices[0].delta.content');
  if (text !== undefined) return text;
  if (typeof delta.content === 'string') fold.content = (fold.content ?? '') + delta.content;
  const parts = delta.tool_calls;
  if (parts === undefined || parts === null) return undefined;
  if (!Array.isArray(parts))
    return `choices[0].delta.tool_calls is ${valueKind(parts)}, not an array`;
  for (let index = 0; index < parts.length; index += 1) {
    const problem = foldToolCall(fold.calls, parts[index], `choices[0].delta.tool_calls[${index}]`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** At `data: [DONE]`: the answer in the shape of a JSON body, checked as one. */
function completed({ content, calls, finishReason, usage }: Fold): ChatStreamVerdict {
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

/** Add a chunk's strings: each choice's under its index, the rest under `chunk`. */
function addStreamedText(streamed: StreamedStrings, data: unknown): void {
  if (!isJsonObject(data)) return;
  streamed.add('chunk', data, CHOICES);
  if (!Array.isArray(data.choices)) return;
  for (const choice of data.choices) {
    const index = isJsonObject(choice) && Number.isInteger(choice.index) ? choice.index : 0;
    streamed.add(`choice ${index}`, choice, INDEX);
  }
}

const CHOICES: ReadonlySet<string> = new Set(['choices']);
const INDEX: ReadonlySet<string> = new Set(['index']);

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
