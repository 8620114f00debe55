import type { Anthropic } from '@anthropic-ai/sdk';
import { type ApiErrorBody, apiErrorBody } from './api-error.js';
import { buildMessage } from './message.js';
import { type MessageStreamEvent, toSseEvents } from './message-events.js';
import { judgePolicy } from './policies/judge.js';
import { type Policy, plainTextPolicy } from './policy.js';
import { readExchanges, type SimRequest, systemTextOf, textOf } from './request.js';
import { createRng, fnv1a, makeId } from './rng.js';
import { validateRequest } from './validate.js';

/**
 * Tried in order; the plain-text policy answers whatever none of them matches. Only the built-in
 * judge: an agent's simulated model is its model script (this repository's example agents
 * register theirs in evals/*.agent.ts).
 */
export const defaultPolicies: readonly Policy[] = [judgePolicy];

export interface RespondOptions {
  policies?: readonly Policy[];
  /** Range for the seeded per-response delay, in ms. Default [0, 0]. */
  delayMs?: readonly [number, number];
  /**
   * A request no policy matches: `plain-text` (default) answers with a plain sentence;
   * `error` refuses it with a 400 marked `x-harness-unscripted` (recording must not tape a
   * made-up answer).
   */
  unmatched?: 'plain-text' | 'error';
}

export const UNSCRIPTED_HEADER = 'x-harness-unscripted';

/** The policy that answers, or undefined when none matches and `unmatched` is `error`. */
export function choosePolicy(request: SimRequest, options: RespondOptions): Policy | undefined {
  const policies = options.policies ?? defaultPolicies;
  const policy = policies.find((candidate) => candidate.matches(request));
  if (policy || options.unmatched === 'error') return policy;
  return plainTextPolicy;
}

/** The refusal for a request nothing answers; the seed names the task, variant and trial. */
export function unscriptedResult<Body>(body: Body) {
  return {
    status: 400,
    headers: { 'content-type': 'application/json', [UNSCRIPTED_HEADER]: '1' },
    body,
    delayMs: 0,
  };
}

export function unscriptedMessage(request: SimRequest, options: RespondOptions): string {
  const why = (options.policies ?? defaultPolicies)
    .map((policy) => policy.problemFor?.(request.seed))
    .find((problem) => problem !== undefined);
  return `no model script or policy answers request ${request.assistantTurns + 1} (seed ${request.seed})${why ? `: ${why}` : ''}`;
}

/** What the server sends: a JSON body, or for `stream: true` the SSE events of that body. */
export interface SimResult {
  status: number;
  headers: Record<string, string>;
  body: Anthropic.Message | ApiErrorBody;
  events?: MessageStreamEvent[];
  /** How long to wait before answering (seeded, within `delayMs`). */
  delayMs: number;
}

export const SEED_HEADER = 'x-harness-seed';

/**
 * Answer one Messages API request, without HTTP. Pure: the same body and headers always
 * give the same result.
 *
 * @example
 * const result = respond(body, { 'x-api-key': 'test', 'x-harness-seed': 'T1/upgraded/3' });
 */
export function respond(
  body: unknown,
  headers: Record<string, string>,
  options: RespondOptions = {},
): SimResult {
  const header = (name: string) =>
    Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  if (!header('x-api-key') && !header('authorization')) {
    return errorResult(401, 'authentication_error', 'x-api-key header is required');
  }
  const validation = validateRequest(body);
  if (!validation.ok) return errorResult(400, 'invalid_request_error', validation.message);

  const request = readRequest(validation.body, header(SEED_HEADER));
  const rng = createRng(request.seed, request.assistantTurns);
  const policy = choosePolicy(request, options);
  if (!policy) {
    return unscriptedResult(
      apiErrorBody('invalid_request_error', unscriptedMessage(request, options)),
    );
  }
  // `stream` is left out of the key: JSON and SSE answers to one request carry the same ids.
  const { stream: _stream, ...content } = validation.body;
  const key = `${request.seed}#${request.assistantTurns}#${fnv1a(JSON.stringify(content))}`;
  const message = buildMessage(request.body, policy.next(request, rng), key);
  const [min, max] = options.delayMs ?? [0, 0];
  const result: SimResult = {
    status: 200,
    headers: {
      'content-type': 'application/json',
      'request-id': makeId('req_011C', `${key}#request`),
      'x-harness-simulator': 'estimated-usage',
      'x-harness-policy': policy.name,
    },
    body: message,
    delayMs: max > min ? rng.between('delay', min, max) : min,
  };
  if (request.body.stream === true) {
    result.headers['content-type'] = 'text/event-stream; charset=utf-8';
    result.headers['cache-control'] = 'no-cache';
    result.events = toSseEvents(message);
  }
  return result;
}

export function readRequest(body: SimRequest['body'], seedHeader?: string): SimRequest {
  const systemText = systemTextOf(body);
  const firstUser = body.messages.find((message) => message.role === 'user');
  const firstUserText = firstUser ? textOf(firstUser.content) : '';
  return {
    body,
    seed: seedHeader || `auto-${fnv1a(`${systemText}\n${firstUserText}`).toString(16)}`,
    systemText,
    firstUserText,
    toolNames: (body.tools ?? []).map((tool) => tool.name),
    assistantTurns: body.messages.filter((message) => message.role === 'assistant').length,
    exchanges: readExchanges(body.messages),
  };
}

export function errorResult(status: number, type: string, message?: string): SimResult {
  return {
    status,
    headers: { 'content-type': 'application/json' },
    body: apiErrorBody(type, message),
    delayMs: 0,
  };
}
