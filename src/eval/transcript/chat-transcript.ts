import { chatCompletionsUsage } from '../../adapters/usage.js';
import { isJsonObject } from '../../model-api/answer-fields.js';
import { chatCompletionProblem } from '../../model-api/chat-completion-check.js';
import { type ChatStreamError, foldChatStream } from '../../model-api/chat-stream.js';
import { type SentMessage, withCallIds } from '../../model-api/tool-call-ids.js';
import { type Exchange, isSseResponse } from '../../replay/cassette.js';
import { type SentBack, sentBackAnswers } from './sent-back.js';
import {
  type Block,
  finalAnswerOf,
  httpErrorText,
  type Transcript,
  type TranscriptBlock,
  type TranscriptToolCall,
  type TranscriptTurn,
  textOf,
} from './transcript-model.js';

/** A Chat Completions call: `POST {baseURL}/chat/completions`, as createChatCompletion sends it. */
export function isChatCompletionsExchange(exchange: Exchange): boolean {
  return (exchange.request.path.split('?')[0] ?? '').endsWith('/chat/completions');
}

/** An answer that passed the adapter's own check (chat-completion-check.ts). */
interface CheckedCompletion {
  choices: [{ message: CheckedMessage; finish_reason: string }];
  usage?: unknown;
}

interface CheckedMessage {
  content?: string | null;
  tool_calls?: Array<{ id?: unknown; function: { name: string; arguments: string } }> | null;
}

/** The request's messages that are objects: a cassette edited by hand may hold anything. */
function requestMessages(exchange: Exchange): Block[] {
  const body = exchange.request.body;
  const messages = isJsonObject(body) ? body.messages : undefined;
  return Array.isArray(messages) ? messages.filter(isJsonObject) : [];
}

/** The messages as withCallIds reads them, so an id-less call gets the id the adapter gave it. */
function sentMessages(messages: readonly Block[]): SentMessage[] {
  return messages.map((message) => ({
    role: typeof message.role === 'string' ? message.role : '',
    ...(Array.isArray(message.tool_calls) && {
      tool_calls: message.tool_calls.filter(isJsonObject),
    }),
    tool_call_id: message.tool_call_id,
  }));
}

/** Tool calls by id and name, as sentBackAnswers compares them; undefined: none. */
function callsKey(calls: readonly unknown[]): string | undefined {
  if (calls.length === 0) return undefined;
  return JSON.stringify(
    calls.map((call) =>
      isJsonObject(call) && isJsonObject(call.function) ? [call.id, call.function.name] : null,
    ),
  );
}

/**
 * The results a turn's calls got, by call id: the `role: "tool"` messages right after its answer
 * as the agent sent it back. Per turn, not per trial: a server that reuses an id in every turn
 * (`call_0`) would otherwise show the last turn's result everywhere.
 */
function resultsOfTurn(sent: SentBack | undefined): Map<string, string> {
  const results = new Map<string, string>();
  if (sent === undefined) return results;
  for (let index = sent.at + 1; sent.messages[index]?.role === 'tool'; index += 1) {
    const { tool_call_id: id, content } = sent.messages[index] ?? {};
    if (typeof id === 'string' && !results.has(id)) results.set(id, textOf(content));
  }
  return results;
}

function streamErrorText({ type, code, detail }: ChatStreamError): string {
  const named = [type, code !== undefined && `code ${code}`].filter(Boolean).join(', ');
  return `the stream sent an error${named ? ` (${named})` : ''}: ${detail}`;
}

/**
 * The answer as the adapter read it: a JSON body or the SSE chunks folded by the adapter's own
 * stream reader (which refuses a tool-call index that is not an existing call's or the next
 * one's), both checked as the adapter checks them; else why it is no answer.
 */
function completionOf(exchange: Exchange): { completion: CheckedCompletion } | { error: string } {
  const { response } = exchange;
  if (response.status >= 400) return { error: httpErrorText(response) };
  if (isSseResponse(response)) {
    const verdict = foldChatStream(response.events);
    if (verdict.error !== undefined) return { error: streamErrorText(verdict.error) };
    if (verdict.completion === undefined)
      return { error: `not a chat completion: ${verdict.problem ?? 'no answer'}` };
    return { completion: verdict.completion as CheckedCompletion };
  }
  const problem = chatCompletionProblem(response.body);
  if (problem !== undefined) return { error: `not a chat completion: ${problem}` };
  return { completion: response.body as CheckedCompletion };
}

/** Arguments as indented JSON, or as the text the model sent when it is not JSON (cut off at max_tokens). */
function inputText(args: string): string {
  try {
    // The adapter reads empty arguments as no arguments.
    return JSON.stringify(JSON.parse(args || '{}'), null, 2);
  } catch {
    return args;
  }
}

/** An answer as the adapter read it, its calls with the ids the adapter gave them; else why it is none. */
type DecodedAnswer =
  | { completion: CheckedCompletion; calls: Array<ToolCall & { id: string }> }
  | { error: string };

type ToolCall = NonNullable<CheckedMessage['tool_calls']>[number];

function decodeAnswer(exchange: Exchange, request: readonly Block[]): DecodedAnswer {
  const answer = completionOf(exchange);
  if ('error' in answer) return answer;
  const [{ message }] = answer.completion.choices;
  return { ...answer, calls: withCallIds(message.tool_calls ?? [], sentMessages(request)) };
}

function decodeTurn(
  exchange: Exchange,
  answer: DecodedAnswer,
  step: number,
  results: ReadonlyMap<string, string>,
): TranscriptTurn {
  if ('error' in answer) {
    const tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
    return { step, stopReason: null, blocks: [], tokens, latencyMs: exchange.latencyMs, ...answer };
  }
  const [{ message, finish_reason }] = answer.completion.choices;
  const blocks: TranscriptBlock[] = [];
  if (typeof message.content === 'string' && message.content !== '')
    blocks.push({ kind: 'text', text: message.content });
  for (const { id, function: fn } of answer.calls) {
    const { name, arguments: args } = fn;
    const call: TranscriptToolCall = {
      name,
      ...(typeof id === 'string' && { id }),
      input: inputText(args),
    };
    const result = results.get(id);
    if (result !== undefined) call.result = result;
    blocks.push({ kind: 'tool', call });
  }
  const usage = chatCompletionsUsage(answer.completion.usage);
  return {
    step,
    stopReason: finish_reason,
    blocks,
    tokens: {
      input: usage.inputTokens ?? 0,
      output: usage.outputTokens ?? 0,
      cacheRead: usage.cacheReadTokens ?? 0,
      cacheWrite: usage.cacheWriteTokens ?? 0,
    },
    latencyMs: exchange.latencyMs,
  };
}

/**
 * The conversation of a Chat Completions trial (createChatCompletionsAgent): the first
 * request's system and user messages, one turn per answer, each tool call with the `role:
 * "tool"` message that answered it. No decisions or durations: an adapter's trace has neither
 * (the adapter runs its tools itself). Never throws on what a cassette that passed readCassette's
 * checks holds (a hand-edited one included); an answer that is not one shows as the turn's error.
 */
export function decodeChatTranscript(exchanges: readonly Exchange[]): Transcript {
  const first = exchanges[0] ? requestMessages(exchanges[0]) : [];
  const requests = exchanges.map(requestMessages);
  const answers = exchanges.map((exchange, index) => ({
    exchange,
    answer: decodeAnswer(exchange, requests[index] ?? []),
  }));
  const sentBack = sentBackAnswers(
    requests,
    answers.map(({ answer }) => ('calls' in answer ? callsKey(answer.calls) : undefined)),
    (message) => (Array.isArray(message.tool_calls) ? callsKey(message.tool_calls) : undefined),
  );
  const turns = answers.map(({ exchange, answer }, index) =>
    decodeTurn(exchange, answer, index + 1, resultsOfTurn(sentBack[index])),
  );
  return {
    system: first
      .filter((message) => message.role === 'system' || message.role === 'developer')
      .map((message) => textOf(message.content))
      .filter((text) => text !== '')
      .join('\n'),
    user: textOf(first.find((message) => message.role === 'user')?.content),
    turns,
    finalAnswer: finalAnswerOf(turns),
  };
}
