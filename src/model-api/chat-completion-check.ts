import { valueKind, valueOrKind } from '../core/value-kind.js';
import {
  bodyProblem,
  cachedUsageProblem,
  idText,
  isJsonObject,
  stringProblem,
} from './answer-fields.js';

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
export function contentProblem(content: unknown, at: string): string | undefined {
  if (content === undefined || content === null || typeof content === 'string') return undefined;
  return `${at} is ${valueOrKind(content)}, not a string or null`;
}

function finishReasonProblem(reason: unknown): string | undefined {
  if ((FINISH_REASONS as readonly unknown[]).includes(reason)) return undefined;
  return `choices[0].finish_reason is ${valueOrKind(reason)}, not one of ${FINISH_REASONS.join(', ')}`;
}

/** Absent is allowed; present, its counts are whole numbers >= 0 and the cached tokens are part of the prompt's. */
function chatUsageProblem(usage: unknown): string | undefined {
  return cachedUsageProblem(usage, ['prompt_tokens', 'completion_tokens', 'prompt_tokens_details']);
}
