import type { Anthropic } from '@anthropic-ai/sdk';
import { type RespondOptions, respond } from './respond.js';

/** A scripted tool: returns the text the model sees (and whether it is an error). */
export type ToolScript = (
  name: string,
  input: Record<string, unknown>,
) => string | { text: string; isError: boolean };

export interface DriveOptions extends RespondOptions {
  system?: string | Array<{ type: 'text'; text: string; cache_control?: { type: 'ephemeral' } }>;
  prompt: string;
  tools: ReadonlyArray<{ name: string; description?: string; input_schema?: unknown }>;
  run: ToolScript;
  /** Sent as `x-harness-seed`, e.g. `T1/upgraded/3`. */
  seed?: string;
  model?: string;
  maxTurns?: number;
}

export interface DriveResult {
  /** The final answer's text. */
  answer: string;
  /** Every assistant message, in order. */
  responses: Anthropic.Message[];
  /** Every tool call, in order, with the assistant turn that made it. */
  toolCalls: Array<{ turn: number; name: string; input: Record<string, unknown> }>;
}

/**
 * Play a whole conversation against `respond` without HTTP: tools answer from a script.
 * For tests of policies, and for looking at what a seed does.
 */
export function driveConversation(options: DriveOptions): DriveResult {
  const messages: Array<{ role: 'user' | 'assistant'; content: unknown }> = [
    { role: 'user', content: options.prompt },
  ];
  const headers: Record<string, string> = { 'x-api-key': 'test' };
  if (options.seed) headers['x-harness-seed'] = options.seed;
  const responses: Anthropic.Message[] = [];
  const toolCalls: DriveResult['toolCalls'] = [];
  for (let turn = 0; turn < (options.maxTurns ?? 12); turn++) {
    const body = {
      model: options.model ?? 'claude-sonnet-4-5',
      max_tokens: 1024,
      ...(options.system === undefined ? {} : { system: options.system }),
      tools: options.tools,
      messages,
    };
    const result = respond(body, headers, options);
    if (result.status !== 200 || result.body.type !== 'message') {
      throw new Error(`simulator answered ${result.status}: ${JSON.stringify(result.body)}`);
    }
    const message = result.body;
    responses.push(message);
    messages.push({ role: 'assistant', content: message.content });
    if (message.stop_reason !== 'tool_use') {
      const answer = message.content
        .map((block) => (block.type === 'text' ? block.text : ''))
        .join('');
      return { answer, responses, toolCalls };
    }
    const results = message.content.flatMap((block) => {
      if (block.type !== 'tool_use') return [];
      const input = block.input as Record<string, unknown>;
      toolCalls.push({ turn, name: block.name, input });
      const output = options.run(block.name, input);
      const { text, isError } =
        typeof output === 'string' ? { text: output, isError: false } : output;
      return [{ type: 'tool_result', tool_use_id: block.id, content: text, is_error: isError }];
    });
    messages.push({ role: 'user', content: results });
  }
  throw new Error(`no final answer after ${options.maxTurns ?? 12} turns`);
}
