import { ConfigError, errorMessage } from '../core/errors.js';
import { resultText } from '../runtime/tool-output.js';
import type { AdapterTool, AgentContext, AgentToolCall } from './types.js';

/** The system prompt of an adapter: fixed, or made from the run's context. */
export function systemOf(
  system: string | ((context: AgentContext) => string) | undefined,
  context: AgentContext,
): string | undefined {
  return typeof system === 'function' ? system(context) : system;
}

/**
 * Run one tool call the model asked for, the same way in every adapter: an unknown tool, a
 * thrown error or a result JSON cannot carry (a Map, a BigInt, NaN: runtime/tool-output.ts,
 * as this runtime's own tools) becomes error text for the model; a ConfigError (the user's
 * setup, not the model's call) is thrown on. Untyped code may return a value that is not
 * text: it is sent as its JSON.
 */
export async function runAdapterTool(
  byName: ReadonlyMap<string, AdapterTool>,
  name: string,
  input: Record<string, unknown>,
  context: AgentContext,
): Promise<{ text: string; isError: boolean; record: AgentToolCall }> {
  const tool = byName.get(name);
  const record = (isError: boolean): AgentToolCall => ({
    name,
    input,
    isError,
    ...(tool?.effect && { effect: tool.effect }),
  });
  if (!tool) return { text: `error: unknown tool ${name}`, isError: true, record: record(true) };
  let result: unknown;
  try {
    result = await tool.run(input, context);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    return { text: `error: ${errorMessage(error)}`, isError: true, record: record(true) };
  }
  const text = resultText(result);
  if (!text.ok) {
    return { text: `error: ${name} failed: ${text.reason}`, isError: true, record: record(true) };
  }
  return { text: text.text, isError: false, record: record(false) };
}

/**
 * A call whose arguments came as JSON text (Chat Completions, the Responses API): text that is
 * not a JSON object is the model's mistake, answered with a tool error it can act on.
 */
export function runJsonArgumentsTool(
  byName: ReadonlyMap<string, AdapterTool>,
  name: string,
  argumentsText: string,
  context: AgentContext,
): Promise<{ text: string; isError: boolean; record: AgentToolCall }> {
  let input: unknown;
  try {
    input = JSON.parse(argumentsText || '{}');
  } catch {
    input = undefined;
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    const text = `error: arguments of ${name} are not a JSON object: send one`;
    return Promise.resolve({ text, isError: true, record: { name, input: {}, isError: true } });
  }
  return runAdapterTool(byName, name, input as Record<string, unknown>, context);
}
