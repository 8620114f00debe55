import { isJsonObject } from '../../model-api/answer-fields.js';
import { foldMessagesStream } from '../../model-api/messages-stream.js';
import {
  type Cassette,
  type Exchange,
  isSseResponse,
  type SseEvent,
} from '../../replay/cassette.js';
import type { TraceEvent } from '../../runtime/trace.js';
import { decodeChatTranscript, isChatCompletionsExchange } from './chat-transcript.js';
import { decodeResponsesTranscript, isResponsesExchange } from './responses-transcript.js';
import { type SentBack, sentBackAnswers } from './sent-back.js';
import {
  type Block,
  finalAnswerOf,
  type Transcript,
  type TranscriptBlock,
  type TranscriptToolCall,
  type TranscriptTurn,
  textOf,
} from './transcript-model.js';

export type {
  Transcript,
  TranscriptBlock,
  TranscriptToolCall,
  TranscriptTurn,
} from './transcript-model.js';

/**
 * The message a streamed response adds up to (the shared fold), each tool_use block's input
 * parsed from its streamed JSON; a block started at another index than its place is named in
 * `problems`.
 */
function assembleStream(events: readonly SseEvent[], problems: string[]): Block {
  const { message, inputJson, notes } = foldMessagesStream(events);
  problems.push(...notes);
  const content = message?.content ?? [];
  content.forEach((block, index) => {
    const text = inputJson[index];
    if (block.type !== 'tool_use' || !text) return;
    try {
      block.input = JSON.parse(text);
    } catch {
      // Cut off (max_tokens mid-call) or not JSON: the SDK took it leniently; show what came.
      block.inputText = text;
    }
  });
  return message ?? {};
}

function responseMessage(exchange: Exchange, problems: string[]): Block {
  const { response } = exchange;
  if (isSseResponse(response)) return assembleStream(response.events, problems);
  return (response.body ?? {}) as Block;
}

/** The request's messages that are objects: a cassette edited by hand may hold anything. */
function requestMessages(exchange: Exchange): Block[] {
  const messages = ((exchange.request.body ?? {}) as Block).messages;
  return Array.isArray(messages) ? messages.filter(isJsonObject) : [];
}

/** An answer's tool_use blocks by id and name, as sentBackAnswers compares them; undefined: none. */
function toolUsesKey(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const uses = content.filter(isJsonObject).filter((block) => block.type === 'tool_use');
  return uses.length === 0 ? undefined : JSON.stringify(uses.map(({ id, name }) => [id, name]));
}

/**
 * The results a turn's calls got, by tool_use_id: the tool_result blocks of the user message
 * right after its answer as the agent sent it back. Per turn, not per trial: an id reused in a
 * later turn would otherwise show that turn's result under every call.
 */
function toolResults(sent: SentBack | undefined): Map<string, { text: string; isError: boolean }> {
  const results = new Map<string, { text: string; isError: boolean }>();
  const next = sent?.messages[sent.at + 1];
  if (next?.role !== 'user' || !Array.isArray(next.content)) return results;
  for (const block of next.content.filter(isJsonObject)) {
    if (block.type !== 'tool_result' || typeof block.tool_use_id !== 'string') continue;
    results.set(block.tool_use_id, {
      text: textOf(block.content),
      isError: block.is_error === true,
    });
  }
  return results;
}

function usage(message: Block): TranscriptTurn['tokens'] {
  const raw = (message.usage ?? {}) as Record<string, unknown>;
  const count = (key: string) => (typeof raw[key] === 'number' ? (raw[key] as number) : 0);
  return {
    input: count('input_tokens'),
    output: count('output_tokens'),
    cacheRead: count('cache_read_input_tokens'),
    cacheWrite: count('cache_creation_input_tokens'),
  };
}

/**
 * The conversation of one trial. The cassette holds it whole (each request carries the history;
 * each response is one assistant turn); the trace adds what the cassette cannot know: the
 * harness's decision on each tool call and how long the call took.
 */
export function decodeTranscript(
  cassette: Cassette,
  trace: readonly TraceEvent[] = [],
): Transcript {
  const exchanges = cassette.exchanges.filter((exchange) =>
    exchange.request.path.startsWith('/v1/messages'),
  );
  // An agent on Chat Completions (createChatCompletionsAgent, provider: 'openai').
  if (exchanges.length === 0 && cassette.exchanges.some(isChatCompletionsExchange)) {
    return decodeChatTranscript(cassette.exchanges.filter(isChatCompletionsExchange));
  }
  // An agent on the Responses API (the openai SDK's responses.create, the Vercel AI SDK's openai(model)).
  if (exchanges.length === 0 && cassette.exchanges.some(isResponsesExchange)) {
    return decodeResponsesTranscript(cassette.exchanges.filter(isResponsesExchange));
  }
  const first = (exchanges[0]?.request.body ?? {}) as Block;
  const firstMessage = Array.isArray(first.messages)
    ? (first.messages[0] as Block | undefined)
    : undefined;
  const answers = exchanges.map((exchange) => {
    const problems: string[] = [];
    return { exchange, message: responseMessage(exchange, problems), problems };
  });
  const sentBack = sentBackAnswers(
    exchanges.map(requestMessages),
    answers.map(({ message }) => toolUsesKey(message.content)),
    (message) => toolUsesKey(message.content),
  );
  const calls = trace.filter((event) => event.type === 'tool_call');
  const turns = answers.map(({ exchange, message, problems }, index): TranscriptTurn => {
    const step = index + 1;
    const results = toolResults(sentBack[index]);
    const traced = calls.filter((event) => event.step === step);
    const blocks: TranscriptBlock[] = [];
    let toolIndex = 0;
    for (const block of Array.isArray(message.content)
      ? message.content.filter(isJsonObject)
      : []) {
      if (block.type === 'text' && typeof block.text === 'string')
        blocks.push({ kind: 'text', text: block.text });
      if (block.type === 'thinking' && typeof block.thinking === 'string')
        blocks.push({ kind: 'thinking', text: block.thinking });
      if (block.type === 'redacted_thinking')
        blocks.push({ kind: 'thinking', text: '[redacted thinking]' });
      if (block.type !== 'tool_use') continue;
      const event = traced[toolIndex++];
      const result = results.get(String(block.id));
      const call: TranscriptToolCall = {
        name: String(block.name),
        ...(typeof block.id === 'string' && { id: block.id }),
        input:
          typeof block.inputText === 'string'
            ? block.inputText
            : JSON.stringify(block.input ?? {}, null, 2),
      };
      // The trace lists the step's calls in call order; trust it only when the tool matches.
      if (event && event.tool === call.name)
        Object.assign(call, { decision: event.decision, ms: event.ms });
      if (result) Object.assign(call, { result: result.text, isError: result.isError });
      blocks.push({ kind: 'tool', call });
    }
    const status = exchange.response.status;
    const error =
      status >= 400
        ? `HTTP ${status}: ${JSON.stringify(message.error ?? message)}`
        : problems.join('; ') || undefined;
    return {
      step,
      stopReason: typeof message.stop_reason === 'string' ? message.stop_reason : null,
      blocks,
      tokens: usage(message),
      latencyMs: exchange.latencyMs,
      ...(error && { error }),
    };
  });
  return {
    system: textOf(first.system),
    user: textOf(firstMessage?.content),
    turns,
    finalAnswer: finalAnswerOf(turns),
  };
}
