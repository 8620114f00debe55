import { redactText } from '../core/redact.js';
import { isTokenCount } from '../core/token-count.js';
import { valueKind, valueOrKind } from '../core/value-kind.js';

/**
 * Field checks shared by the two model answer checks, the Messages API's (message-check.ts)
 * and Chat Completions' (chat-completion-check.ts): each returns what is wrong, naming the
 * field and what it got, or undefined.
 */

/** A JSON object: not null, not an array. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A response body that is not a JSON object: text (a gateway's page), null, an array... */
export function bodyProblem(value: unknown): string | undefined {
  if (typeof value === 'string')
    return "the body is text, not a JSON object (a gateway's error page?)";
  if (!isJsonObject(value)) return `the body is ${valueKind(value, 'missing')}, not a JSON object`;
  return undefined;
}

/** `at` must be a string; `optional` lets undefined and null pass. */
export function stringProblem(value: unknown, at: string, optional = false): string | undefined {
  if (typeof value === 'string' || (optional && (value === undefined || value === null)))
    return undefined;
  return value === undefined ? `${at} is missing` : `${at} is ${valueOrKind(value)}, not a string`;
}

/** `at` must be a token count (a whole number >= 0: a string would be concatenated, not added); `optional` lets undefined and null pass. */
export function tokenCountProblem(
  value: unknown,
  at: string,
  optional = false,
): string | undefined {
  if (isTokenCount(value) || (optional && (value === undefined || value === null)))
    return undefined;
  return `${at} is ${valueOrKind(value)}, not a whole number >= 0`;
}

/** A tool call's id for an error message: quoted when it is a plain id, else only its length (it may echo a key). */
export function idText(id: string): string {
  if (/^[\w-]{1,64}$/.test(id) && redactText(id) === id) return `'${id}'`;
  return `(an id of ${id.length} characters)`;
}

/**
 * The usage of an OpenAI API answer (Chat Completions, Responses), named by its fields
 * `[input, output, details]`: absent is allowed; present, its counts are whole numbers >= 0 and
 * `details.cached_tokens` (the cached part of the input) is no more than the input.
 */
export function cachedUsageProblem(
  usage: unknown,
  [input, output, details]: readonly [string, string, string],
): string | undefined {
  if (usage === undefined || usage === null) return undefined;
  if (!isJsonObject(usage)) return `usage is ${valueKind(usage)}, not an object`;
  const counts =
    tokenCountProblem(usage[input], `usage.${input}`) ??
    tokenCountProblem(usage[output], `usage.${output}`);
  if (counts !== undefined) return counts;
  const found = usage[details];
  if (found === undefined || found === null) return undefined;
  if (!isJsonObject(found)) return `usage.${details} is ${valueKind(found)}, not an object`;
  const cached = found.cached_tokens;
  const at = `usage.${details}.cached_tokens`;
  const count = tokenCountProblem(cached, at, true);
  if (count !== undefined) return count;
  if (typeof cached === 'number' && cached > (usage[input] as number))
    return `${at} (${cached}) is more than usage.${input} (${usage[input] as number})`;
  return undefined;
}
