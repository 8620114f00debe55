import { z } from 'zod';

const ContentBlockSchema = z.looseObject({ type: z.string() });

const MessageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string(), z.array(ContentBlockSchema)]),
});

const SystemBlockSchema = z.looseObject({
  type: z.literal('text'),
  text: z.string(),
  cache_control: z.unknown().optional(),
});

/** The part of a Messages API request body the simulator reads; other fields pass through. */
export const MessagesRequestSchema = z.looseObject({
  model: z.string().min(1),
  max_tokens: z.number().int().min(1),
  messages: z.array(MessageSchema).min(1, 'at least one message is required'),
  system: z.union([z.string(), z.array(SystemBlockSchema)]).optional(),
  tools: z.array(z.looseObject({ name: z.string() })).optional(),
  stream: z.boolean().optional(),
});
export type MessagesRequest = z.infer<typeof MessagesRequestSchema>;
export type RequestMessage = z.infer<typeof MessageSchema>;
export type RequestBlock = z.infer<typeof ContentBlockSchema>;

/** One tool_use the assistant sent, with the tool_result that came back (if any). */
export interface ToolExchange {
  id: string;
  name: string;
  input: unknown;
  /** Index of the assistant turn that made the call (0 = first assistant message). */
  turn: number;
  result?: { text: string; isError: boolean };
}

/** A validated request, pre-read the way every policy needs it. */
export interface SimRequest {
  body: MessagesRequest;
  /** `x-harness-seed` (task/variant/trial), else a hash of system prompt + first user message. */
  seed: string;
  systemText: string;
  firstUserText: string;
  toolNames: readonly string[];
  /** Assistant messages already in the conversation. */
  assistantTurns: number;
  exchanges: readonly ToolExchange[];
}

export function blocksOf(message: RequestMessage): RequestBlock[] {
  return typeof message.content === 'string'
    ? [{ type: 'text', text: message.content }]
    : message.content;
}

/** The text of a content value: a string, or the text blocks of an array. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block: unknown) => {
      const text = (block as { type?: unknown; text?: unknown } | null)?.text;
      return typeof text === 'string' ? text : '';
    })
    .filter((text) => text.length > 0)
    .join('\n');
}

export function systemTextOf(body: MessagesRequest): string {
  return textOf(body.system);
}

export function readExchanges(messages: readonly RequestMessage[]): ToolExchange[] {
  const exchanges: ToolExchange[] = [];
  const byId = new Map<string, ToolExchange>();
  let turn = 0;
  for (const message of messages) {
    for (const block of blocksOf(message)) {
      if (message.role === 'assistant' && block.type === 'tool_use') {
        const exchange: ToolExchange = {
          id: String(block.id),
          name: String(block.name),
          input: block.input,
          turn,
        };
        exchanges.push(exchange);
        byId.set(exchange.id, exchange);
      } else if (message.role === 'user' && block.type === 'tool_result') {
        const exchange = byId.get(String(block.tool_use_id));
        if (exchange) {
          exchange.result = { text: textOf(block.content), isError: block.is_error === true };
        }
      }
    }
    if (message.role === 'assistant') turn++;
  }
  return exchanges;
}
