import type { Anthropic } from '@anthropic-ai/sdk';
import type { Turn } from './policy.js';
import type { MessagesRequest } from './request.js';
import { makeId } from './rng.js';
import { estimateUsage } from './usage.js';

/**
 * A Messages API response for a turn. Ids derive from `key` (seed + request), so the
 * same request always gets the same ids, and tool_use ids stay stable across replays.
 */
export function buildMessage(body: MessagesRequest, turn: Turn, key: string): Anthropic.Message {
  let content: Anthropic.ContentBlock[] = turn.blocks.map((block, index) =>
    block.type === 'text'
      ? { type: 'text', text: block.text, citations: null }
      : {
          type: 'tool_use',
          id: makeId('toolu_01', `${key}#tool#${index}`),
          name: block.name,
          input: block.input,
          caller: { type: 'direct' },
        },
  );
  let stopReason: Anthropic.StopReason = content.some((block) => block.type === 'tool_use')
    ? 'tool_use'
    : 'end_turn';
  let usage = estimateUsage(body, content);
  if (usage.output_tokens > body.max_tokens) {
    // Like a real model out of budget: the text is cut and no tool call is completed.
    content = cutToBudget(content, body.max_tokens);
    stopReason = 'max_tokens';
    usage = { ...estimateUsage(body, content), output_tokens: body.max_tokens };
  }
  return {
    id: makeId('msg_01', `${key}#message`),
    type: 'message',
    role: 'assistant',
    model: body.model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    stop_details: null,
    container: null,
    diagnostics: null,
    usage,
  };
}

function cutToBudget(
  content: Anthropic.ContentBlock[],
  maxTokens: number,
): Anthropic.ContentBlock[] {
  let budget = maxTokens * 4;
  const kept: Anthropic.ContentBlock[] = [];
  for (const block of content) {
    if (block.type !== 'text' || budget <= 0) break;
    kept.push({ ...block, text: block.text.slice(0, budget) });
    budget -= block.text.length;
  }
  return kept;
}
