import type { z } from 'zod';
import type { Turn } from './policy.js';
import {
  choosePolicy,
  type RespondOptions,
  readRequest,
  SEED_HEADER,
  unscriptedMessage,
  unscriptedResult,
} from './respond.js';
import { createRng, fnv1a } from './rng.js';

/** What the simulator sends for an OpenAI API request (Chat Completions, Responses) before its body is built. */
export interface OpenAIResult<Body> {
  status: number;
  headers: Record<string, string>;
  body: Body;
  delayMs: number;
}

/** An OpenAI API error body. */
export function openAIErrorBody(message: string) {
  return { error: { message, type: 'invalid_request_error', param: null, code: null } };
}

export function openAIError(status: number, message: string): OpenAIResult<unknown> {
  return {
    status,
    headers: { 'content-type': 'application/json' },
    body: openAIErrorBody(message),
    delayMs: 0,
  };
}

/** The request body as `schema` reads it, checked as the API checks it: a key, then the body. */
export function parseOpenAIRequest<T>(
  schema: z.ZodType<T>,
  body: unknown,
  headers: Record<string, string>,
): { request: T; seed: string | undefined } | { refused: OpenAIResult<unknown> } {
  const header = (name: string) =>
    Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  if (!header('authorization'))
    return { refused: openAIError(401, 'authorization header is required') };
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { refused: openAIError(400, `${issue?.path.join('.')}: ${issue?.message}`) };
  }
  return { request: parsed.data, seed: header(SEED_HEADER) };
}

/**
 * The next turn of the policy or model script that answers `messages` (the request read in the
 * Messages API's shape), with the key its ids derive from and its seeded delay; or the refusal
 * of a request nothing answers. `content` is the request without its stream options: JSON and
 * SSE answers to one request carry the same ids.
 */
export function answerTurn(
  messages: Parameters<typeof readRequest>[0],
  seed: string | undefined,
  content: unknown,
  options: RespondOptions,
):
  | {
      turn: Turn;
      key: string;
      inputTokens: number;
      success: (body: unknown) => OpenAIResult<unknown>;
    }
  | { refused: OpenAIResult<unknown> } {
  const request = readRequest(messages, seed);
  const policy = choosePolicy(request, options);
  if (!policy)
    return { refused: unscriptedResult(openAIErrorBody(unscriptedMessage(request, options))) };
  const rng = createRng(request.seed, request.assistantTurns);
  const text = JSON.stringify(content);
  const [min, max] = options.delayMs ?? [0, 0];
  return {
    turn: policy.next(request, rng),
    key: `${request.seed}#${request.assistantTurns}#${fnv1a(text)}`,
    inputTokens: Math.ceil(text.length / 4),
    success: (body) => ({
      status: 200,
      headers: {
        'content-type': 'application/json',
        'x-harness-simulator': 'estimated-usage',
        'x-harness-policy': policy.name,
      },
      body,
      delayMs: max > min ? rng.between('delay', min, max) : min,
    }),
  };
}

/**
 * A message's text: its string content, or the text of its content parts joined by newlines
 * (`text`, `input_text`, `output_text` parts; an assistant's `refusal`). Image, audio and file
 * parts carry no text for a model script to read.
 */
export function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((part: unknown) => {
      if (part === null || typeof part !== 'object') return [];
      const { text, refusal } = part as { text?: unknown; refusal?: unknown };
      if (typeof text === 'string') return [text];
      return typeof refusal === 'string' ? [refusal] : [];
    })
    .join('\n');
}
