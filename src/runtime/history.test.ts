import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { trimHistory } from './history.js';

type Message = Anthropic.MessageParam;

const goal: Message = { role: 'user', content: 'Refund order ORD1001, it was charged twice.' };

/** One tool round: the assistant's tool_use and the user turn holding its tool_result. */
function round(index: number, padding = 200): Message[] {
  const id = `toolu_${index}`;
  return [
    {
      role: 'assistant',
      content: [
        { type: 'text', text: `Checking step ${index}.` },
        { type: 'tool_use', id, name: 'get_order', input: { order_id: 'ORD1001' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: id, content: `result ${index} ${'x'.repeat(padding)}` },
      ],
    },
  ];
}

function conversation(rounds: number): Message[] {
  const messages: Message[] = [goal];
  for (let index = 1; index <= rounds; index += 1) messages.push(...round(index));
  return messages;
}

const size = (messages: Message[]) =>
  messages.reduce((total, message) => total + JSON.stringify(message).length, 0);

function blocks(
  message: Message,
): Array<{ type: string; id?: string; tool_use_id?: string; text?: string }> {
  return typeof message.content === 'string'
    ? [{ type: 'text', text: message.content }]
    : message.content;
}

function expectWellFormed(messages: Message[]) {
  expect(messages[0]!.role).toBe('user');
  for (let index = 1; index < messages.length; index += 1) {
    expect(messages[index]!.role).not.toBe(messages[index - 1]!.role);
  }
  messages.forEach((message, index) => {
    const uses = blocks(message)
      .filter((block) => block.type === 'tool_use')
      .map((block) => block.id);
    const next = messages[index + 1];
    const answered = next
      ? blocks(next)
          .filter((block) => block.type === 'tool_result')
          .map((block) => block.tool_use_id)
      : [];
    expect(answered).toEqual(expect.arrayContaining(uses));
    const results = blocks(message)
      .filter((block) => block.type === 'tool_result')
      .map((block) => block.tool_use_id);
    const previous = messages[index - 1];
    const asked = previous
      ? blocks(previous)
          .filter((block) => block.type === 'tool_use')
          .map((block) => block.id)
      : [];
    expect(asked).toEqual(expect.arrayContaining(results));
  });
}

describe('trimHistory', () => {
  it('returns the history untouched when it fits the budget', () => {
    const messages = conversation(3);
    const trimmed = trimHistory(messages, { maxChars: size(messages) });
    expect(trimmed).toEqual({ messages, dropped: 0 });
    expect(trimmed.messages).toBe(messages);
  });

  it('drops the oldest rounds first, keeps the goal and notes the omission on it', () => {
    const messages = conversation(5);
    const budget = size([goal, ...round(4), ...round(5)]) + 100;
    const trimmed = trimHistory(messages, { maxChars: budget });
    expect(trimmed.dropped).toBe(6);
    expect(trimmed.messages).toHaveLength(5);
    expect(trimmed.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Refund order ORD1001, it was charged twice.' },
        { type: 'text', text: '[6 earlier messages omitted]' },
      ],
    });
    expect(trimmed.messages.slice(1)).toEqual([...round(4), ...round(5)]);
    expect(size(trimmed.messages)).toBeLessThanOrEqual(budget);
  });

  it('keeps tool_use/tool_result pairs intact and roles alternating at every budget', () => {
    const messages = conversation(6);
    for (let budget = 0; budget <= size(messages); budget += 97) {
      const trimmed = trimHistory(messages, { maxChars: budget });
      expect(trimmed.messages[0]!.role).toBe('user');
      expect(blocks(trimmed.messages[0]!)[0]!.text).toBe(goal.content);
      expect(trimmed.messages.length + trimmed.dropped).toBe(messages.length);
      expectWellFormed(trimmed.messages);
    }
  });

  it('always keeps the latest round, even when it alone is over budget', () => {
    const messages = conversation(3);
    const trimmed = trimHistory(messages, { maxChars: 10 });
    expect(trimmed.dropped).toBe(4);
    expect(trimmed.messages.slice(1)).toEqual(round(3));
  });

  it('appends the goal note to array content and leaves the input unchanged', () => {
    const arrayGoal: Message = { role: 'user', content: [{ type: 'text', text: 'Goal.' }] };
    const messages = [arrayGoal, ...round(1), ...round(2)];
    const before = structuredClone(messages);
    const trimmed = trimHistory(messages, { maxChars: 0 });
    expect(blocks(trimmed.messages[0]!).map((block) => block.text)).toEqual([
      'Goal.',
      '[2 earlier messages omitted]',
    ]);
    expect(messages).toEqual(before);
  });

  it('adds a summary of the dropped messages after the note', () => {
    const messages = conversation(3);
    let seen: readonly Message[] = [];
    const trimmed = trimHistory(messages, {
      maxChars: 0,
      summarize: (dropped) => {
        seen = dropped;
        return `${dropped.length / 2} get_order calls, all for ORD1001.`;
      },
    });
    expect(seen).toEqual([...round(1), ...round(2)]);
    expect(blocks(trimmed.messages[0]!)[1]!.text).toBe(
      '[4 earlier messages omitted]\nSummary of the omitted messages: 2 get_order calls, all for ORD1001.',
    );
  });

  it('drops a lone assistant message (a paused turn) together with its neighbours without breaking alternation', () => {
    const paused: Message = { role: 'assistant', content: 'Still thinking.' };
    const messages = [goal, paused, ...round(1), ...round(2)];
    const trimmed = trimHistory(messages, { maxChars: size([goal, ...round(2)]) + 100 });
    expect(trimmed.dropped).toBe(3);
    expectWellFormed(trimmed.messages);
  });
});
