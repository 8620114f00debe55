import type Anthropic from '@anthropic-ai/sdk';
import type { ToolCall } from './types.js';

/** A response's content blocks ([] when a malformed answer has none). */
export function contentOf(message: Pick<Anthropic.Message, 'content'>): Anthropic.ContentBlock[] {
  return Array.isArray(message.content) ? message.content : [];
}

/** The text of a response's text blocks, joined by `separator` and trimmed. */
export function responseText(
  content: readonly Anthropic.ContentBlock[],
  separator: string,
): string {
  return content
    .filter((block): block is Anthropic.TextBlock => block.type === 'text')
    .map((block) => block.text)
    .join(separator)
    .trim();
}

/** The tool calls a response asks for, in order. */
export function toolCallsOf(content: readonly Anthropic.ContentBlock[]): ToolCall[] {
  return content
    .filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use')
    .map((block) => ({ id: block.id, name: block.name, input: block.input }));
}

/** An id two tool calls of one answer share: their results could not be told apart. */
export function repeatedId(calls: readonly ToolCall[]): string | undefined {
  const seen = new Set<string>();
  for (const { id } of calls) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}
