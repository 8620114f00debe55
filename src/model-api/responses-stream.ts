import { valueKind } from '../core/value-kind.js';
import { isJsonObject } from './answer-fields.js';
import { statusOfErrorType } from './error-type-status.js';
import { responseProblem } from './responses-check.js';
import type { SseEvent } from './sse.js';
import { StreamedStrings } from './streamed-strings.js';

type Block = Record<string, unknown>;

/** An error a Responses stream sent (an `error` event, or `response.failed`). */
export interface ResponsesStreamError {
  /** The server's words: `message`, else the event as it came. Quote it through serverText. */
  detail: string;
  /** `code` as the server sent it (`rate_limit_exceeded`, `server_error`). */
  code?: string;
  /** The HTTP status it stands for (see statusOfResponsesError); undefined: retried like a dropped connection. */
  status?: number;
}

/** What the events of a Responses API stream add up to (foldResponsesStream). */
export interface ResponsesStream {
  /** The response the terminal event carried (`response.completed`, `.incomplete`, `.failed`). */
  response?: Block;
  /** The output items as the stream's item and delta events built them: what a viewer shows when no terminal event came. */
  output: Block[];
  /** Why a client refuses it: data that is not JSON, no terminal event, or a terminal response that fails the check. */
  problem?: string;
  error?: ResponsesStreamError;
  /**
   * Every string every event carried (deltas, done texts, items), joined per output item (its
   * id, else its index) and field (`output item msg_1 delta`), at any depth, whatever the client
   * makes of them: the text a secret split across events adds up to. The whole responses of
   * `response.created` and the terminal events are left to the byte scan.
   */
  streamedText: Map<string, string>;
}

const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/**
 * Fold a Responses API stream (`POST /responses` with `stream: true`) the way clients read it:
 * each event by its data's `type`, the answer being the response its terminal event carries;
 * an `error` event or `response.failed` is the server's failure. The one fold of the Responses
 * API: the tape judges recordings with it, the transcript shows it, the secret scan reads its
 * streamed text and the Responses client reads answers with it.
 */
export function foldResponsesStream(events: readonly SseEvent[]): ResponsesStream {
  const output: Block[] = [];
  const streamed = new StreamedStrings();
  let response: Block | undefined;
  let settled: Pick<ResponsesStream, 'problem' | 'error'> | undefined;
  for (const [at, { event, data }] of events.entries()) {
    addStreamedText(streamed, data);
    if (settled !== undefined || response !== undefined) continue;
    if (data === '[DONE]') continue;
    if (typeof data === 'string') {
      settled = { problem: `event ${at + 1} is not JSON` };
      continue;
    }
    if (!isJsonObject(data)) {
      settled = { problem: `event ${at + 1} is ${valueKind(data)}, not a JSON object` };
      continue;
    }
    const type = typeof data.type === 'string' ? data.type : event;
    if (type === 'error') settled = { error: streamError(data) };
    else if (TERMINAL.has(type)) {
      response = isJsonObject(data.response) ? data.response : {};
      if (type === 'response.failed') settled = { error: streamError(response.error ?? data) };
    } else addEvent(output, type, data);
  }
  const streamedText = streamed.texts();
  if (settled) return { ...(response && { response }), output, streamedText, ...settled };
  if (!response)
    return { output, streamedText, problem: 'the stream ended before response.completed' };
  const problem = responseProblem(response);
  return { response, output, streamedText, ...(problem !== undefined && { problem }) };
}

/** Item and delta events: the output as the stream builds it (copies: a tape keeps the events). */
function addEvent(output: Block[], type: string, data: Block): void {
  const index = data.output_index;
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index > 10_000) return;
  if (
    (type === 'response.output_item.added' || type === 'response.output_item.done') &&
    isJsonObject(data.item)
  ) {
    output[index] = structuredClone(data.item);
    return;
  }
  const item = output[index];
  if (!item || typeof data.delta !== 'string') return;
  if (type === 'response.function_call_arguments.delta') {
    item.arguments = `${typeof item.arguments === 'string' ? item.arguments : ''}${data.delta}`;
  } else if (type === 'response.output_text.delta' || type === 'response.refusal.delta') {
    if (!Array.isArray(item.content)) item.content = [];
    const parts = item.content as unknown[];
    const at = typeof data.content_index === 'number' ? data.content_index : 0;
    const field = type === 'response.output_text.delta' ? 'text' : 'refusal';
    if (!isJsonObject(parts[at]))
      parts[at] = { type: field === 'text' ? 'output_text' : 'refusal' };
    const part = parts[at] as Block;
    part[field] = `${typeof part[field] === 'string' ? part[field] : ''}${data.delta}`;
  }
}

/** The error an `error` event or a failed response carries. */
function streamError(value: unknown): ResponsesStreamError {
  const error = isJsonObject(value) && isJsonObject(value.error) ? value.error : value;
  if (!isJsonObject(error)) return { detail: JSON.stringify(value) ?? String(value) };
  const code =
    typeof error.code === 'string' || typeof error.code === 'number'
      ? String(error.code)
      : undefined;
  const status = statusOfResponsesError(code, error.type);
  return {
    detail: typeof error.message === 'string' ? error.message : JSON.stringify(error),
    ...(code !== undefined && { code }),
    ...(status !== undefined && { status }),
  };
}

/**
 * The HTTP status a Responses error stands for: its `code` as the API names them
 * (`rate_limit_exceeded` 429, `server_error` 500, `context_length_exceeded` and `invalid_prompt`
 * 400), a numeric code, else its type as the Messages API's; undefined when nothing names one.
 */
export function statusOfResponsesError(
  code: string | undefined,
  type?: unknown,
): number | undefined {
  if (code !== undefined && /^[45]\d\d$/.test(code)) return Number(code);
  const named = code === undefined ? undefined : RESPONSES_ERROR_STATUS[code];
  return named ?? statusOfErrorType(type);
}

const RESPONSES_ERROR_STATUS: Record<string, number | undefined> = {
  __proto__: null as never,
  rate_limit_exceeded: 429,
  insufficient_quota: 429,
  server_error: 500,
  vector_store_timeout: 504,
  invalid_prompt: 400,
  context_length_exceeded: 400,
};

/**
 * Every string of an event, per output item (its id, else its index) and field path
 * (StreamedStrings): a secret split across delta events adds up in `output item <id> delta`.
 * The whole response of `response.created` and the terminal events is the byte scan's.
 */
function addStreamedText(streamed: StreamedStrings, data: unknown): void {
  if (!isJsonObject(data)) return;
  const item = isJsonObject(data.item) ? data.item.id : undefined;
  const key = String(data.item_id ?? item ?? data.output_index ?? '-');
  streamed.add(`output item ${key}`, data, WHOLE_RESPONSE);
}

const WHOLE_RESPONSE: ReadonlySet<string> = new Set(['response']);
