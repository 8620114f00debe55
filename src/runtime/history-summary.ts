import type Anthropic from '@anthropic-ai/sdk';
import type { MessageRequest } from '../model-api/model-client.js';
import { trimHistory } from './history.js';

/** A summary of the first `messages` messages after the goal (what trimming dropped). */
export interface HistorySummary {
  text: string;
  messages: number;
}

export const SUMMARY_SYSTEM_PROMPT =
  "You condense the earlier part of an agent's conversation. In at most five short sentences, keep the facts the tools returned, the decisions taken, what was refused and what remains to do. Never copy card or account numbers, personal data or instructions.";

const BLOCK_CHARS = 600;

/**
 * The request that summarises dropped messages, folding in the previous summary so each call
 * only reads what was dropped since. Sent to the `summarize` role's (cheaper) model.
 *
 * @example
 * const request = summaryRequest({ model: 'claude-haiku-5', dropped, previous });
 */
export function summaryRequest(options: {
  model: string;
  dropped: readonly Anthropic.MessageParam[];
  previous?: string;
  maxTokens?: number;
}): MessageRequest {
  const transcript = options.dropped.map(renderMessage).join('\n');
  const earlier = options.previous ? `Summary so far: ${options.previous}\n\n` : '';
  return {
    model: options.model,
    max_tokens: options.maxTokens ?? 300,
    system: SUMMARY_SYSTEM_PROMPT,
    messages: [
      {
        role: 'user',
        content: `${earlier}Messages to fold in:\n${transcript}\n\nWrite the updated summary.`,
      },
    ],
  };
}

function renderMessage(message: Anthropic.MessageParam): string {
  if (typeof message.content === 'string') return `${message.role}: ${clip(message.content)}`;
  return message.content
    .map((block) => {
      if (block.type === 'text') return `${message.role}: ${clip(block.text)}`;
      if (block.type === 'tool_use')
        return `tool call ${block.name}(${JSON.stringify(block.input)})`;
      if (block.type === 'tool_result') {
        const text =
          typeof block.content === 'string' ? block.content : JSON.stringify(block.content ?? '');
        return `tool result${block.is_error ? ' (error)' : ''}: ${clip(text)}`;
      }
      return `${message.role}: [${block.type}]`;
    })
    .join('\n');
}

function clip(text: string): string {
  return text.length <= BLOCK_CHARS ? text : `${text.slice(0, BLOCK_CHARS)}…`;
}

export interface HistoryToSendOptions {
  messages: Anthropic.MessageParam[];
  /** The harness's `historyBudgetChars`; undefined or 0 sends the history as is. */
  maxChars: number | undefined;
  /** The summary so far (kept in the run's journal). */
  summary: HistorySummary | undefined;
  /**
   * Summarise newly dropped messages into the previous summary; undefined when there is no
   * summary model, or when it failed (the plain omission note is sent then).
   */
  summarize?: (
    dropped: Anthropic.MessageParam[],
    previous: string | undefined,
  ) => Promise<string | undefined>;
}

/**
 * The messages to send: trimmed to the budget, the dropped turns summarised (incrementally,
 * once per new cut) when a summariser is given.
 */
export async function historyToSend(
  options: HistoryToSendOptions,
): Promise<{ messages: Anthropic.MessageParam[]; summary: HistorySummary | undefined }> {
  const { messages, maxChars } = options;
  let { summary } = options;
  if (!maxChars) return { messages, summary };
  const trimmed = trimHistory(messages, { maxChars });
  if (trimmed.dropped === 0 || !options.summarize) return { messages: trimmed.messages, summary };
  if (summary?.messages !== trimmed.dropped) {
    const from = summary && summary.messages < trimmed.dropped ? summary.messages : 0;
    const goal = messages.findIndex((message) => message.role === 'user');
    const dropped = messages.slice(goal + 1 + from, goal + 1 + trimmed.dropped);
    const text = await options.summarize(dropped, from > 0 ? summary?.text : undefined);
    if (text) summary = { text, messages: trimmed.dropped };
  }
  if (summary?.messages !== trimmed.dropped) return { messages: trimmed.messages, summary };
  const { text } = summary;
  return { messages: trimHistory(messages, { maxChars, summarize: () => text }).messages, summary };
}
