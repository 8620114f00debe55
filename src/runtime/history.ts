import type Anthropic from '@anthropic-ai/sdk';

export interface TrimHistoryOptions {
  /** Budget for the messages, counted as characters of their JSON. */
  maxChars: number;
  /**
   * Summarise the dropped messages; the text follows the omission note. It is added after the
   * cut and not counted against `maxChars`, so keep it short.
   */
  summarize?: (dropped: readonly Anthropic.MessageParam[]) => string;
}

export interface TrimmedHistory {
  messages: Anthropic.MessageParam[];
  /** How many messages were left out (0 when the history fit). */
  dropped: number;
}

/**
 * Fit the history into a budget: keep the user's goal (the first user message) and the latest
 * turn, drop the oldest turns in between, and tell the model with a note appended to the goal.
 * A turn is an assistant message plus the user messages after it, so a tool_use is never
 * separated from its tool_result and user/assistant roles still alternate. The input is not
 * changed; under budget it is returned as is.
 *
 * @example
 * const { messages: sent } = trimHistory(messages, { maxChars: 60_000 });
 */
export function trimHistory(
  messages: Anthropic.MessageParam[],
  options: TrimHistoryOptions,
): TrimmedHistory {
  const sizes = messages.map(sizeOf);
  const total = sum(sizes);
  const goalIndex = messages.findIndex((message) => message.role === 'user');
  if (total <= options.maxChars || goalIndex < 0) return { messages, dropped: 0 };

  const goal = messages[goalIndex]!;
  const turns = splitTurns(messages, goalIndex + 1);
  // The last turn usually holds the tool_results the model is waiting for: it always stays.
  let droppedTurns = 0;
  let droppedMessages = 0;
  let keptSize = total;
  while (droppedTurns < turns.length - 1) {
    const turn = turns[droppedTurns]!;
    droppedTurns += 1;
    droppedMessages += turn.end - turn.start;
    keptSize -= sum(sizes.slice(turn.start, turn.end));
    const noted = withNote(goal, omissionNote(droppedMessages));
    if (keptSize - sizes[goalIndex]! + sizeOf(noted) <= options.maxChars) break;
  }
  if (droppedTurns === 0) return { messages, dropped: 0 };

  const firstKept = turns[droppedTurns]!.start;
  const dropped = messages.slice(goalIndex + 1, firstKept);
  const summary = options.summarize?.(dropped).trim();
  const note =
    omissionNote(dropped.length) + (summary ? `\nSummary of the omitted messages: ${summary}` : '');
  return {
    messages: [...messages.slice(0, goalIndex), withNote(goal, note), ...messages.slice(firstKept)],
    dropped: dropped.length,
  };
}

interface Turn {
  start: number;
  end: number;
}

/** Each assistant message starts a turn; user messages before the first one form their own. */
function splitTurns(messages: readonly Anthropic.MessageParam[], from: number): Turn[] {
  const turns: Turn[] = [];
  for (let index = from; index < messages.length; index += 1) {
    const last = turns.at(-1);
    if (last && messages[index]!.role !== 'assistant') last.end = index + 1;
    else turns.push({ start: index, end: index + 1 });
  }
  return turns;
}

function omissionNote(count: number): string {
  return `[${count} earlier messages omitted]`;
}

/** The note joins the goal message: a separate user message would break the role alternation. */
function withNote(goal: Anthropic.MessageParam, note: string): Anthropic.MessageParam {
  const content: Anthropic.ContentBlockParam[] =
    typeof goal.content === 'string' ? [{ type: 'text', text: goal.content }] : [...goal.content];
  return { ...goal, content: [...content, { type: 'text', text: note }] } as Anthropic.MessageParam;
}

function sizeOf(message: Anthropic.MessageParam): number {
  return JSON.stringify(message).length;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
