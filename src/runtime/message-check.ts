import { isTokenCount } from '../core/token-count.js';
import { valueKind } from '../core/value-kind.js';
/**
 * Is this a Messages API message? A hand-written check, not a zod schema: it runs on every
 * model call, replayed ones included (hundreds per eval), and costs well under a microsecond
 * for a usual answer. It is lenient where the runtime is: unknown extra fields and unknown
 * block types pass (the loop ignores them), and so does a tool_use block's odd `input` (the
 * tool pipeline refuses it with a message the model can act on).
 */
export function messageProblem(value: unknown): string | undefined {
  if (typeof value === 'string')
    return "the body is text, not a JSON object (a gateway's error page?)";
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `the body is ${valueKind(value, 'missing')}, not a JSON object`;
  }
  const message = value as Record<string, unknown>;
  if (message.type !== 'message') return `type is ${shown(message.type)}, not 'message'`;
  if (message.role !== 'assistant') return `role is ${shown(message.role)}, not 'assistant'`;
  const content = message.content;
  if (!Array.isArray(content))
    return `content is ${valueKind(content, 'missing')}, not an array of blocks`;
  for (let index = 0; index < content.length; index += 1) {
    const problem = blockProblem(content[index]);
    if (problem) return `content[${index}]${problem}`;
  }
  if (typeof message.stop_reason !== 'string') {
    return `stop_reason is ${shown(message.stop_reason)}, not a string`;
  }
  return usageProblem(message.usage);
}

const TOKEN_COUNTS = ['input_tokens', 'output_tokens'] as const;
const OPTIONAL_TOKEN_COUNTS = ['cache_read_input_tokens', 'cache_creation_input_tokens'] as const;

/** Token counts are whole numbers >= 0 (a string would be concatenated, not added); cache counts may be null. */
export function usageProblem(usage: unknown): string | undefined {
  if (typeof usage !== 'object' || usage === null || Array.isArray(usage)) {
    return usage === undefined
      ? 'usage is missing'
      : `usage is ${valueKind(usage, 'missing')}, not an object`;
  }
  const counts = usage as Record<string, unknown>;
  for (const name of TOKEN_COUNTS) {
    if (!isTokenCount(counts[name]))
      return `usage.${name} is ${shown(counts[name])}, not a whole number >= 0`;
  }
  for (const name of OPTIONAL_TOKEN_COUNTS) {
    const count = counts[name];
    if (count !== undefined && count !== null && !isTokenCount(count)) {
      return `usage.${name} is ${shown(count)}, not a whole number >= 0`;
    }
  }
  return undefined;
}

function blockProblem(block: unknown): string | undefined {
  if (typeof block !== 'object' || block === null || Array.isArray(block)) {
    return ` is ${valueKind(block, 'missing')}, not a block object`;
  }
  const { type } = block as { type?: unknown };
  if (typeof type !== 'string')
    return type === undefined ? '.type is missing' : `.type is ${shown(type)}`;
  // The two block types the loop reads fields of; the rest it passes back as they came.
  if (type === 'text') return stringField(block, 'text');
  if (type === 'tool_use') return stringField(block, 'id') ?? stringField(block, 'name');
  return undefined;
}

function stringField(block: object, name: string): string | undefined {
  const value = (block as Record<string, unknown>)[name];
  if (typeof value === 'string') return undefined;
  return value === undefined ? `.${name} is missing` : `.${name} is ${shown(value)}, not a string`;
}

/** Short values as they are (numbers, booleans, short identifiers), anything else by its kind. */
function shown(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string' && /^[a-z_]{1,40}$/.test(value)) return `'${value}'`;
  return valueKind(value, 'missing');
}
