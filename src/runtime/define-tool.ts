import { z } from 'zod';
import { ConfigError } from '../core/errors.js';
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
  if (!TOOL_NAME.test(options.name)) {
    throw new ConfigError(
      `tool name '${options.name}' is invalid: use 1-64 letters, digits, '_' or '-'`,
    );
  }
  const { $schema: _ignored, ...schema } = z.toJSONSchema(options.parameters.strict(), {
    io: 'input',
  }) as Record<string, unknown>;
  const inputSchema = {
    ...schema,
    type: 'object',
    additionalProperties: false,
  } as AnthropicInputSchema;
  return { ...options, parameters: options.parameters.strict() as Schema, inputSchema };
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
