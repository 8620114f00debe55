import { z } from 'zod';
import { ConfigError, errorMessage } from '../core/errors.js';
import { timeoutMsProblem } from './timeout-ms.js';
import type { AnthropicInputSchema, ToolDefinition } from './types.js';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Define a tool. The zod schema is the single source of truth: the Anthropic
 * definition (`input_schema`, `additionalProperties: false`) is generated from it here, once.
 *
 * @example
 * const getOrder = defineTool({
 *   name: 'get_order', description: 'Look up an order.', effect: 'read', timeoutMs: 3000,
 *   parameters: z.object({ order_id: z.string().regex(/^ORD\d{4}$/) }),
 *   execute: ({ order_id }) => ORDERS[order_id],
 * });
 */
export function defineTool<Schema extends z.ZodObject>(
  options: Omit<ToolDefinition<Schema>, 'inputSchema'>,
): ToolDefinition<Schema> {
  if (typeof options.name !== 'string' || !TOOL_NAME.test(options.name)) {
    throw new ConfigError(
      `tool name '${String(options.name)}' is invalid: use 1-64 letters, digits, '_' or '-'`,
    );
  }
  checkOptions(options);
  let jsonSchema: Record<string, unknown>;
  try {
    jsonSchema = { ...z.toJSONSchema(options.parameters.strict(), { io: 'input' }) };
  } catch (error) {
    throw new ConfigError(
      `tool '${options.name}': its parameters have no JSON Schema form for the model (${errorMessage(error)}); use JSON types, e.g. z.iso.datetime() for a date, z.string() or z.number() for a custom type`,
      { cause: error },
    );
  }
  const { $schema: _ignored, ...schema } = jsonSchema;
  const inputSchema = {
    ...schema,
    type: 'object',
    additionalProperties: false,
  } as AnthropicInputSchema;
  return { ...options, parameters: options.parameters.strict() as Schema, inputSchema };
}

/** Evals do not type-check: what TypeScript would refuse is refused here, naming the tool. */
function checkOptions(options: Omit<ToolDefinition, 'inputSchema'>): void {
  const tool = `tool '${options.name}'`;
  const { timeoutMs, effect } = options;
  const timeout = timeoutMs === undefined ? undefined : timeoutMsProblem(timeoutMs);
  if (timeout !== undefined) {
    throw new ConfigError(`${tool}: ${timeout}; leave it out for no timeout`);
  }
  if (effect !== 'read' && effect !== 'write') {
    throw new ConfigError(
      `${tool}: effect '${String(effect)}' is unknown; use 'read' or 'write' (a write gets an idempotency key and approvals)`,
    );
  }
  // Duck-typed: an agent's own copy of zod makes objects that fail `instanceof` ours.
  if (typeof (options.parameters as { strict?: unknown } | undefined)?.strict !== 'function') {
    throw new ConfigError(
      `${tool}: parameters must be a zod object schema, e.g. z.object({ order_id: z.string() })`,
    );
  }
  if (typeof options.execute !== 'function') {
    throw new ConfigError(`${tool}: execute must be a function (args, context) => result`);
  }
}

/** The `tools` array of a Messages API request. */
export function toAnthropicTools(tools: readonly ToolDefinition[]): Array<{
  name: string;
  description: string;
  input_schema: AnthropicInputSchema;
}> {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema,
  }));
}
