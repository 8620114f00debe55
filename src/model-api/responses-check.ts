import { valueKind, valueOrKind } from '../core/value-kind.js';
import {
  bodyProblem,
  cachedUsageProblem,
  idText,
  isJsonObject,
  stringProblem,
} from './answer-fields.js';

/** The statuses a finished Responses API answer has: `incomplete` ran out (max_output_tokens), `failed` says why in `error`. */
export const RESPONSE_STATUSES = ['completed', 'incomplete', 'failed'] as const;

/**
 * Is this a Responses API answer (the JSON body of `POST /responses`, or what a stream's
 * `response.completed` carries)? The third twin of message-check.ts and
 * chat-completion-check.ts, as lenient: extra fields and unknown output item types pass (a
 * reasoning item, a web search call); the items the clients read are checked: a `message`'s
 * content parts, a `function_call`'s call_id, name and arguments (text: arguments that are not
 * JSON are the model's mistake, answered with a tool error), no call_id twice. `usage` may be
 * absent; present, its counts are whole numbers and the cached tokens part of the input's.
 */
export function responseProblem(value: unknown): string | undefined {
  const body = bodyProblem(value);
  if (body !== undefined) return body;
  const response = value as Record<string, unknown>;
  if (response.object !== undefined && response.object !== 'response')
    return `object is ${valueOrKind(response.object)}, not 'response'`;
  const { output, status } = response;
  if (!Array.isArray(output)) return `output is ${valueKind(output, 'missing')}, not an array`;
  if (status !== undefined && !(RESPONSE_STATUSES as readonly unknown[]).includes(status))
    return `status is ${valueOrKind(status)}, not one of ${RESPONSE_STATUSES.join(', ')}`;
  const callAt = new Map<string, number>();
  for (let index = 0; index < output.length; index += 1) {
    const at = `output[${index}]`;
    const problem = itemProblem(output[index], at);
    if (problem !== undefined) return problem;
    const item = output[index] as Record<string, unknown>;
    if (item.type !== 'function_call') continue;
    const id = item.call_id as string;
    const first = callAt.get(id);
    if (first !== undefined)
      return `${at}.call_id ${idText(id)} is the call_id of output[${first}] too: each function call needs its own`;
    callAt.set(id, index);
  }
  return cachedUsageProblem(response.usage, [
    'input_tokens',
    'output_tokens',
    'input_tokens_details',
  ]);
}

function itemProblem(item: unknown, at: string): string | undefined {
  if (!isJsonObject(item)) return `${at} is ${valueKind(item, 'missing')}, not an object`;
  if (typeof item.type !== 'string')
    return item.type === undefined
      ? `${at}.type is missing`
      : `${at}.type is ${valueOrKind(item.type)}`;
  if (item.type === 'function_call') {
    return (
      stringProblem(item.call_id, `${at}.call_id`) ??
      stringProblem(item.name, `${at}.name`) ??
      stringProblem(item.arguments, `${at}.arguments`)
    );
  }
  if (item.type !== 'message') return undefined;
  if (!Array.isArray(item.content))
    return `${at}.content is ${valueKind(item.content, 'missing')}, not an array of parts`;
  for (let index = 0; index < item.content.length; index += 1) {
    const part: unknown = item.content[index];
    const where = `${at}.content[${index}]`;
    if (!isJsonObject(part)) return `${where} is ${valueKind(part, 'missing')}, not an object`;
    if (part.type === 'output_text') {
      const text = stringProblem(part.text, `${where}.text`);
      if (text !== undefined) return text;
    }
    if (part.type === 'refusal') {
      const refusal = stringProblem(part.refusal, `${where}.refusal`);
      if (refusal !== undefined) return refusal;
    }
  }
  return undefined;
}
