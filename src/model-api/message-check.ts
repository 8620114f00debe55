import { valueKind, valueOrKind } from '../core/value-kind.js';
import {
  bodyProblem,
  idText,
  isJsonObject,
  stringProblem,
  tokenCountProblem,
} from './answer-fields.js';
/**
 * Is this a Messages API message? A hand-written check, not a zod schema: it runs on every
 * model call, replayed ones included (hundreds per eval), and costs well under a microsecond
 * for a usual answer. It is lenient where the runtime is: unknown extra fields and unknown
 * block types pass (the loop ignores them), and so does a tool_use block's odd `input` (the
 * tool pipeline refuses it with a message the model can act on).
 */
export function messageProblem(value: unknown): string | undefined {
  const body = bodyProblem(value);
  if (body !== undefined) return body;
  const message = value as Record<string, unknown>;
  if (message.type !== 'message') return `type is ${valueOrKind(message.type)}, not 'message'`;
  if (message.role !== 'assistant') return `role is ${valueOrKind(message.role)}, not 'assistant'`;
  const content = message.content;
  if (!Array.isArray(content))
    return `content is ${valueKind(content, 'missing')}, not an array of blocks`;
  // A tool_result answers a tool_use by id, and a paused batch keeps its writes by id.
  const toolUseAt = new Map<string, number>();
  for (let index = 0; index < content.length; index += 1) {
    const block = content[index];
    const problem = blockProblem(block, `content[${index}]`);
    if (problem) return problem;
    if ((block as { type: string }).type !== 'tool_use') continue;
    const id = (block as { id: string }).id;
    const first = toolUseAt.get(id);
    if (first !== undefined) {
      return `content[${index}].id ${idText(id)} is the id of content[${first}] too: each tool_use needs its own id`;
    }
    toolUseAt.set(id, index);
  }
  if (typeof message.stop_reason !== 'string') {
    return `stop_reason is ${valueOrKind(message.stop_reason)}, not a string`;
  }
  return usageProblem(message.usage);
}

/** Token counts are whole numbers >= 0 (a string would be concatenated, not added); cache counts may be null. */
export function usageProblem(usage: unknown): string | undefined {
  if (!isJsonObject(usage)) {
    return usage === undefined
      ? 'usage is missing'
      : `usage is ${valueKind(usage, 'missing')}, not an object`;
  }
  return (
    tokenCountProblem(usage.input_tokens, 'usage.input_tokens') ??
    tokenCountProblem(usage.output_tokens, 'usage.output_tokens') ??
    tokenCountProblem(usage.cache_read_input_tokens, 'usage.cache_read_input_tokens', true) ??
    tokenCountProblem(usage.cache_creation_input_tokens, 'usage.cache_creation_input_tokens', true)
  );
}

function blockProblem(block: unknown, at: string): string | undefined {
  if (!isJsonObject(block)) return `${at} is ${valueKind(block, 'missing')}, not a block object`;
  const { type } = block;
  if (typeof type !== 'string')
    return type === undefined ? `${at}.type is missing` : `${at}.type is ${valueOrKind(type)}`;
  // The two block types the loop reads fields of; the rest it passes back as they came.
  if (type === 'text') return stringProblem(block.text, `${at}.text`);
  if (type === 'tool_use')
    return stringProblem(block.id, `${at}.id`) ?? stringProblem(block.name, `${at}.name`);
  return undefined;
}
