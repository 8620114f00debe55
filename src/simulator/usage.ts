import type { Anthropic } from '@anthropic-ai/sdk';
import type { MessagesRequest } from './request.js';

/** Added to every output estimate: the stop marker and block framing a real model also pays for. */
const OUTPUT_OVERHEAD_TOKENS = 8;

const estimate = (chars: number) => Math.ceil(chars / 4);

/** Output characters: text, plus each tool call's name and JSON input. */
export function outputChars(content: readonly Anthropic.ContentBlock[]): number {
  let chars = 0;
  for (const block of content) {
    if (block.type === 'text') chars += block.text.length;
    else if (block.type === 'tool_use')
      chars += block.name.length + JSON.stringify(block.input).length;
  }
  return chars;
}

function cachedPrefixTokens(body: MessagesRequest): number {
  const system = body.system;
  if (!Array.isArray(system) || !system.some((block) => block.cache_control != null)) return 0;
  return estimate(JSON.stringify({ tools: body.tools ?? [], system }).length);
}

/**
 * Token usage as estimates (about four characters a token); the response says so in
 * `x-harness-simulator: estimated-usage`. A system prompt block with `cache_control`
 * models prompt caching: the tools + system prefix is written on a conversation's first
 * request and read on later ones, and is not counted again in `input_tokens`.
 */
export function estimateUsage(
  body: MessagesRequest,
  output: readonly Anthropic.ContentBlock[],
): Anthropic.Usage {
  // `stream` is transport, not content: JSON and SSE answers report the same usage.
  const { stream: _stream, ...content } = body;
  const total = estimate(JSON.stringify(content).length);
  const prefix = cachedPrefixTokens(body);
  const firstRequest = body.messages.length === 1;
  const cacheCreation = firstRequest ? prefix : 0;
  return {
    input_tokens: Math.max(1, total - prefix),
    output_tokens: estimate(outputChars(output)) + OUTPUT_OVERHEAD_TOKENS,
    cache_creation_input_tokens: cacheCreation,
    cache_read_input_tokens: firstRequest ? 0 : prefix,
    cache_creation: { ephemeral_5m_input_tokens: cacheCreation, ephemeral_1h_input_tokens: 0 },
    server_tool_use: null,
    service_tier: 'standard',
    inference_geo: null,
    output_tokens_details: null,
    speed: null,
  };
}
