import { responsesUsage } from '../../adapters/usage.js';
import { isJsonObject } from '../../model-api/answer-fields.js';
import { responseProblem } from '../../model-api/responses-check.js';
import { foldResponsesStream } from '../../model-api/responses-stream.js';
import { type Exchange, isSseResponse } from '../../replay/cassette.js';
import {
  type Block,
  finalAnswerOf,
  httpErrorText,
  type Transcript,
  type TranscriptBlock,
  type TranscriptTurn,
  textOf,
} from './transcript-model.js';

/** A Responses API call: `POST {baseURL}/responses` (the openai SDK's responses.create, the Vercel AI SDK's default model). */
export function isResponsesExchange(exchange: Exchange): boolean {
  return (
    exchange.request.method === 'POST' &&
    (exchange.request.path.split('?')[0] ?? '').endsWith('/responses')
  );
}

/** The request's input as items: a string input is one user message. */
function inputItems(exchange: Exchange): Block[] {
  const body = exchange.request.body;
  if (!isJsonObject(body)) return [];
  if (typeof body.input === 'string') return [{ role: 'user', content: body.input }];
  return Array.isArray(body.input) ? body.input.filter(isJsonObject) : [];
}

/** The answer as the client read it: the response a JSON body or the stream's terminal event holds, else why it is none. */
function answerOf(exchange: Exchange): { response: Block } | { error: string } {
  const { response } = exchange;
  if (response.status >= 400) return { error: httpErrorText(response) };
  if (isSseResponse(response)) {
    const verdict = foldResponsesStream(response.events);
    if (verdict.error !== undefined) {
      const code = verdict.error.code ? ` (code ${verdict.error.code})` : '';
      return { error: `the stream sent an error${code}: ${verdict.error.detail}` };
    }
    if (verdict.problem !== undefined || !verdict.response)
      return { error: `not a response: ${verdict.problem ?? 'no answer'}` };
    return { response: verdict.response };
  }
  const problem = responseProblem(response.body);
  return problem === undefined
    ? { response: response.body as Block }
    : { error: `not a response: ${problem}` };
}

/** Arguments as indented JSON, or as the text the model sent when it is not JSON. */
function inputText(args: unknown): string {
  if (typeof args !== 'string') return JSON.stringify(args ?? {}, null, 2);
  try {
    return JSON.stringify(JSON.parse(args || '{}'), null, 2);
  } catch {
    return args;
  }
}

/** An output item as transcript blocks: message text and refusals, reasoning summaries, function calls. */
function blocksOf(item: Block, results: ReadonlyMap<string, string>): TranscriptBlock[] {
  if (item.type === 'message' && Array.isArray(item.content)) {
    return item.content.filter(isJsonObject).flatMap((part): TranscriptBlock[] => {
      if (part.type === 'output_text' && typeof part.text === 'string' && part.text !== '')
        return [{ kind: 'text', text: part.text }];
      if (part.type === 'refusal' && typeof part.refusal === 'string')
        return [{ kind: 'text', text: `[refusal] ${part.refusal}` }];
      return [];
    });
  }
  if (item.type === 'reasoning') {
    const summary = Array.isArray(item.summary) ? textOf(item.summary) : '';
    return summary === '' ? [] : [{ kind: 'thinking', text: summary }];
  }
  if (item.type !== 'function_call') return [];
  const result = typeof item.call_id === 'string' ? results.get(item.call_id) : undefined;
  return [
    {
      kind: 'tool',
      call: {
        name: String(item.name),
        ...(typeof item.call_id === 'string' && { id: item.call_id }),
        input: inputText(item.arguments),
        ...(result !== undefined && { result }),
      },
    },
  ];
}

/**
 * The outputs each call got: the `function_call_output` items of the first later request that
 * holds any of this turn's call ids (another conversation's requests in between are passed over).
 */
function resultsOfTurn(calls: readonly string[], later: readonly Block[][]): Map<string, string> {
  const results = new Map<string, string>();
  if (calls.length === 0) return results;
  for (const items of later) {
    const outputs = items.filter(
      (item) => item.type === 'function_call_output' && calls.includes(String(item.call_id)),
    );
    if (outputs.length === 0) continue;
    for (const item of outputs) {
      const output = typeof item.output === 'string' ? item.output : textOf(item.output);
      if (!results.has(String(item.call_id))) results.set(String(item.call_id), output);
    }
    break;
  }
  return results;
}

function turnOf(exchange: Exchange, step: number, later: readonly Block[][]): TranscriptTurn {
  const answer = answerOf(exchange);
  const latencyMs = exchange.latencyMs;
  if ('error' in answer) {
    const tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
    return { step, stopReason: null, blocks: [], tokens, latencyMs, error: answer.error };
  }
  const output = (answer.response.output as unknown[]).filter(isJsonObject);
  const calls = output.flatMap((item) =>
    item.type === 'function_call' && typeof item.call_id === 'string' ? [item.call_id] : [],
  );
  const results = resultsOfTurn(calls, later);
  const usage = responsesUsage(answer.response.usage);
  return {
    step,
    stopReason: typeof answer.response.status === 'string' ? answer.response.status : null,
    blocks: output.flatMap((item) => blocksOf(item, results)),
    tokens: {
      input: usage.inputTokens ?? 0,
      output: usage.outputTokens ?? 0,
      cacheRead: usage.cacheReadTokens ?? 0,
      cacheWrite: 0,
    },
    latencyMs,
  };
}

/**
 * The conversation of a Responses API trial: `instructions` (and system or developer messages)
 * as the system prompt, the first user message, one turn per answer with its message text,
 * reasoning summaries and function calls, each call with the `function_call_output` the agent
 * sent back. Never throws on what a cassette that passed readCassette's checks holds; an answer
 * that is not one shows as its turn's error.
 */
export function decodeResponsesTranscript(exchanges: readonly Exchange[]): Transcript {
  const requests = exchanges.map(inputItems);
  const first = requests[0] ?? [];
  const body = exchanges[0]?.request.body;
  const instructions =
    isJsonObject(body) && typeof body.instructions === 'string' ? [body.instructions] : [];
  const turns = exchanges.map((exchange, index) =>
    turnOf(exchange, index + 1, requests.slice(index + 1)),
  );
  return {
    system: [
      ...instructions,
      ...first
        .filter((item) => item.role === 'system' || item.role === 'developer')
        .map((item) => textOf(item.content)),
    ]
      .filter((text) => text !== '')
      .join('\n'),
    user: textOf(first.find((item) => item.role === 'user')?.content),
    turns,
    finalAnswer: finalAnswerOf(turns),
  };
}
