import { valueOrKind } from '../core/value-kind.js';
import { isJsonObject } from './answer-fields.js';
import { messageProblem } from './message-check.js';
import type { SseEvent } from './sse.js';
import { StreamedStrings } from './streamed-strings.js';

type Block = Record<string, unknown>;

/** A message as a stream builds it: message_start's message, its content and usage assembled. */
export type StreamedMessage = Block & { content: Block[]; usage: Block };

/** What the events of a Messages API stream add up to (foldMessagesStream). */
export interface MessagesStream {
  /**
   * The message, assembled as `@anthropic-ai/sdk` assembles it up to message_stop; past an
   * event the client refuses, the fold goes on as far as it can, so a viewer still shows what
   * came. Undefined when no message_start came.
   */
  message: StreamedMessage | undefined;
  /** The text each tool_use block's input_json_delta events joined to, by its place in `message.content`. */
  inputJson: string[];
  /**
   * Why the client refuses the stream: the first event it fails on (an `error` event, events
   * out of order, data that is not JSON...), else no message_stop, else what messageProblem
   * says of the message. Undefined: a message the client takes.
   */
  problem?: string;
  /** The type of the `error` event, when the stream sent one (`unknown` when it named none). */
  errorType?: string;
  /** What the client passes over but a reader should know: a block started at another index than its place. */
  notes: string[];
  /**
   * Every string the events carried, joined per place in stream order (StreamedStrings): a
   * block's start and deltas per block index and field (`content block 0 text`, `content block
   * 1 partial_json`, `content block 2 citation.cited_text`), any other event's per its type and
   * field (`message_start message.content[].text`), whatever the client makes of them: the text
   * a secret split across events adds up to.
   */
  streamedText: Map<string, string>;
}

/** The delta types the SDK reads the current block for (it fails on one before any block started). */
const BLOCK_DELTAS = new Set([
  'text_delta',
  'citations_delta',
  'input_json_delta',
  'thinking_delta',
  'signature_delta',
]);

/**
 * Fold a Messages API stream's events into the message they add up to. The one fold of the
 * project: the retry rules (retryable-answer.ts) judge it, the transcript shows it, the secret
 * scan reads its streamed text. It reads events as the SDK does: `ping` and data-only events
 * are skipped, an `error` event is the server's failure, every other event is read by its
 * data's `type`; events before message_start are skipped, and message_stop ends the message.
 * Not modelled: the SDK's partial-JSON parse of tool input (JSON it cannot parse fails the
 * stream at content_block_stop) and events after message_stop (a second message_start fails it).
 */
export function foldMessagesStream(events: readonly SseEvent[]): MessagesStream {
  const fold: Fold = { message: undefined, inputJson: [], notes: [], stopped: false };
  const streamed = new StreamedStrings();
  let refusal: Refusal | undefined;
  for (const { event, data } of events) {
    addStreamedText(streamed, data);
    if (fold.stopped) continue;
    const refused = addEvent(fold, event, data);
    refusal ??= refused;
  }
  const { message, inputJson, notes } = fold;
  refusal ??= fold.stopped
    ? optional(messageProblem(message))
    : { problem: 'the stream ended before message_stop' };
  return { message, inputJson, notes, streamedText: streamed.texts(), ...refusal };
}

interface Fold {
  message: StreamedMessage | undefined;
  inputJson: string[];
  notes: string[];
  stopped: boolean;
}

type Refusal = { problem?: string; errorType?: string };

/** Add one event; what the client would fail on, or undefined. */
function addEvent(fold: Fold, name: string, data: unknown): Refusal | undefined {
  // The SDK skips pings and events without a name (`message` here).
  if (name === 'ping' || name === 'message') return undefined;
  if (name === 'error') {
    const type = isJsonObject(data) && isJsonObject(data.error) ? data.error.type : undefined;
    return {
      problem: 'the stream sent an error',
      errorType: typeof type === 'string' ? type : 'unknown',
    };
  }
  if (data === '') return undefined;
  if (typeof data === 'string') return { problem: `a ${name} event's data is not JSON` };
  if (data === null) return { problem: `a ${name} event's data is null` };
  // Another value holds no type: the SDK passes over it.
  if (!isJsonObject(data)) return undefined;
  if (data.type === 'message_start') return startMessage(fold, data.message);
  const { message } = fold;
  if (message === undefined) return undefined;
  switch (data.type) {
    case 'message_stop':
      fold.stopped = true;
      return undefined;
    case 'content_block_start':
      if (data.index !== message.content.length) {
        fold.notes.push(
          `content_block_start index ${valueOrKind(data.index)} is not the next block (${message.content.length})`,
        );
      }
      message.content.push({ ...(data.content_block as object) });
      return undefined;
    case 'content_block_delta':
      return addDelta(fold, message, data);
    case 'message_delta':
      return mergeMessageDelta(message, data);
    default:
      return undefined;
  }
}

function startMessage(fold: Fold, start: unknown): Refusal | undefined {
  if (fold.message) return { problem: 'a second message_start before message_stop' };
  if (!isJsonObject(start)) return { problem: 'message_start holds no message' };
  fold.message = {
    ...start,
    // Copies: folding must not change the events (a tape keeps them).
    content: Array.isArray(start.content)
      ? start.content.map((block) => (isJsonObject(block) ? { ...block } : block))
      : [],
    usage: { ...(start.usage as object | undefined) },
  };
  return undefined;
}

/**
 * A delta lands on the block at its index, as the SDK writes it (`content[index]`): an index
 * that is not one of a started block (-1, 0.5, `__proto__`, past the end) changes nothing.
 */
function addDelta(fold: Fold, message: StreamedMessage, data: Block): Refusal | undefined {
  const { delta, index } = data;
  if (delta === undefined || delta === null)
    return { problem: 'content_block_delta holds no delta' };
  if (!isJsonObject(delta)) return undefined;
  const { content } = message;
  if (content.length === 0 && BLOCK_DELTAS.has(delta.type as string)) {
    return { problem: 'content_block_delta before any content_block_start' };
  }
  const at = blockIndex(index, content.length);
  const block = at === undefined ? undefined : content[at];
  if (at === undefined || !isJsonObject(block)) return undefined;
  if (delta.type === 'text_delta' && block.type === 'text') {
    block.text = `${(block.text as string | undefined) || ''}${delta.text}`;
  } else if (delta.type === 'thinking_delta' && block.type === 'thinking') {
    block.thinking = `${(block.thinking as string | undefined) ?? ''}${delta.thinking}`;
  } else if (delta.type === 'signature_delta' && block.type === 'thinking') {
    block.signature = delta.signature;
  } else if (delta.type === 'citations_delta' && block.type === 'text') {
    block.citations = [...(Array.isArray(block.citations) ? block.citations : []), delta.citation];
  } else if (
    delta.type === 'input_json_delta' &&
    (block.type === 'tool_use' || block.type === 'server_tool_use')
  ) {
    fold.inputJson[at] = `${fold.inputJson[at] ?? ''}${delta.partial_json}`;
  }
  return undefined;
}

/** The place of a started block an index names (a number, or its canonical string), else undefined. */
function blockIndex(index: unknown, length: number): number | undefined {
  const at = typeof index === 'string' && String(Number(index)) === index ? Number(index) : index;
  return typeof at === 'number' && Number.isInteger(at) && at >= 0 && at < length ? at : undefined;
}

/** message_delta: its stop_reason, and its usage merged as the SDK merges it. */
function mergeMessageDelta(message: StreamedMessage, data: Block): Refusal | undefined {
  message.stop_reason = isJsonObject(data.delta) ? data.delta.stop_reason : undefined;
  const counts = data.usage;
  if (!isJsonObject(counts)) return { problem: 'message_delta holds no usage' };
  // output_tokens always; the other totals only when present.
  for (const [name, count] of Object.entries(counts)) {
    if (name === 'output_tokens' || count !== null) message.usage[name] = count;
  }
  if (!('output_tokens' in counts)) message.usage.output_tokens = undefined;
  return undefined;
}

/**
 * Add an event's strings: a block's start and deltas under its index (`content block ?` when the
 * index is not a number), joined by field as the client joins a block; any other typed event's
 * under its type.
 */
function addStreamedText(streamed: StreamedStrings, data: unknown): void {
  if (!isJsonObject(data)) return;
  const block =
    data.type === 'content_block_delta'
      ? data.delta
      : data.type === 'content_block_start'
        ? data.content_block
        : undefined;
  if (block === undefined) {
    // Data without a type is no Messages event: the Chat Completions fold reads it.
    if (typeof data.type === 'string') streamed.add(data.type, data, TYPE);
    return;
  }
  const index = Number.isInteger(data.index) ? String(data.index) : '?';
  streamed.add(`content block ${index}`, block, TYPE);
}

const TYPE: ReadonlySet<string> = new Set(['type']);

function optional(problem: string | undefined): Refusal {
  return problem === undefined ? {} : { problem };
}
