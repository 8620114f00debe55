import { ModelApiError } from '../core/errors.js';
import { shownUrl } from '../core/shown-url.js';
import { malformedAnswer, RESPONSES_API, serverText } from '../model-api/call-failure.js';
import { responseProblem } from '../model-api/responses-check.js';
import { foldResponsesStream, type ResponsesStreamError } from '../model-api/responses-stream.js';
import { parseSseEvents } from '../model-api/sse.js';
import type { TokenUsage } from '../model-api/token-usage.js';
import { postToModelApi } from './openai-post.js';
import { responsesUsage } from './usage.js';

const DEADLINE_FIX = "record: --model-timeout SECONDS; library: createResponsesAgent's timeoutMs";

/** An input or output item of the Responses API (a message, a function call, its output...). */
export type ResponseItem = Record<string, unknown> & { type?: string };

/** A function call the model asked for (a `function_call` output item). */
export interface ResponseFunctionCall {
  type: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
  id?: string;
}

export interface ResponsesRequest {
  model: string;
  input: string | ResponseItem[];
  instructions?: string;
  tools?: Array<{ type: 'function'; name: string; description?: string; parameters: unknown }>;
  max_output_tokens?: number;
  stream?: boolean;
  /** This client sends whole items back, never references: nothing needs to be stored. */
  store?: boolean;
}

export interface ResponsesResult {
  /** The output items, as the next request sends them back. */
  output: ResponseItem[];
  /** The text of the message items, joined. */
  text: string;
  calls: ResponseFunctionCall[];
  status: string | undefined;
  usage: Partial<TokenUsage>;
}

export interface ResponsesCallOptions {
  fetch: typeof fetch;
  /** e.g. `https://api.openai.com/v1`. */
  baseURL: string;
  apiKey: string;
  body: ResponsesRequest;
  signal?: AbortSignal;
  /** The deadline of the call, headers and body. Default 600 000 ms. */
  timeoutMs?: number;
}

/**
 * One `POST {baseURL}/responses` with plain fetch, JSON or (`body.stream`) SSE, read with the
 * shared check and stream fold (model-api): an answer that is not a response, or a stream that
 * breaks, is a `ModelApiError` the retry policy retries (malformed, cut, a stream error), as
 * the Chat Completions client's are. The request alone decides how the answer is read.
 */
export async function createResponse(options: ResponsesCallOptions): Promise<ResponsesResult> {
  const { body, baseURL } = options;
  const { text } = await postToModelApi({
    api: RESPONSES_API,
    label: 'the Responses API',
    path: '/responses',
    ...options,
    deadlineFix: DEADLINE_FIX,
  });
  return body.stream === true ? readStream(text, options) : readJson(text, baseURL);
}

function readJson(text: string, baseURL: string): ResponsesResult {
  let body: unknown = null;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    body = text;
  }
  const problem = responseProblem(body);
  if (problem !== undefined) throw malformedAnswer(RESPONSES_API, baseURL, problem);
  return resultOf(body as Record<string, unknown>);
}

function readStream(text: string, { baseURL, apiKey }: ResponsesCallOptions): ResponsesResult {
  const verdict = foldResponsesStream(parseSseEvents(text));
  if (verdict.error !== undefined) throw streamError(verdict.error, baseURL, apiKey);
  if (verdict.problem !== undefined || verdict.response === undefined)
    throw malformedAnswer(RESPONSES_API, baseURL, verdict.problem ?? 'no answer');
  return resultOf(verdict.response);
}

function streamError(error: ResponsesStreamError, baseURL: string, apiKey: string): ModelApiError {
  const said = serverText(`${error.code ? ` (code ${error.code})` : ''}: ${error.detail}`, apiKey);
  return new ModelApiError(
    `${RESPONSES_API.name} at ${shownUrl(baseURL)} sent an error inside its stream${said}; the server failed mid-answer: check its logs, or the gateway in between`,
    { kind: 'stream_error', ...(error.status !== undefined && { status: error.status }) },
  );
}

/** A response responseProblem passed, as the agent loop reads it. */
function resultOf(response: Record<string, unknown>): ResponsesResult {
  const output = response.output as ResponseItem[];
  const text = output
    .filter((item) => item.type === 'message' && Array.isArray(item.content))
    .flatMap((item) => item.content as Array<{ type?: unknown; text?: unknown }>)
    .flatMap((part) =>
      part.type === 'output_text' && typeof part.text === 'string' ? [part.text] : [],
    )
    .join('');
  return {
    output,
    text,
    calls: output.filter(
      (item): item is ResponseItem & ResponseFunctionCall => item.type === 'function_call',
    ),
    status: typeof response.status === 'string' ? response.status : undefined,
    usage: responsesUsage(response.usage),
  };
}
