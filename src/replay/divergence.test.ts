import { describe, expect, it } from 'vitest';
import { describeDivergence, findDivergence, type Normaliser } from './divergence.js';

const body = {
  model: 'claude-test-1',
  system: [{ type: 'text', text: 'You are the refund desk.' }],
  tools: [
    { name: 'get_policy', input_schema: { type: 'object', properties: {} } },
    {
      name: 'lookup_order',
      input_schema: {
        type: 'object',
        properties: { order_id: { type: 'string', pattern: '^A-\\d+$' } },
      },
    },
  ],
  messages: [
    { role: 'user', content: 'Where is my refund?' },
    {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup_order', input: {} }],
    },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'pending' }],
    },
  ],
};

function changed(edit: (copy: typeof body) => void): typeof body {
  const copy = structuredClone(body);
  edit(copy);
  return copy;
}

describe('findDivergence', () => {
  it('finds nothing when the bodies are equal, whatever their key order', () => {
    const reordered = {
      messages: body.messages,
      tools: body.tools,
      system: body.system,
      model: body.model,
    };
    expect(findDivergence(body, reordered)).toBeUndefined();
  });

  const edits: Array<[string, (copy: typeof body) => void]> = [
    [
      '/system/0/text',
      (copy) => {
        copy.system[0]!.text = 'You are the help desk.';
      },
    ],
    [
      '/tools/1/input_schema/properties/order_id/pattern',
      (copy) => {
        copy.tools[1]!.input_schema.properties.order_id!.pattern = '^B-';
      },
    ],
    [
      '/messages/2/content/0/content',
      (copy) => {
        (copy.messages[2]!.content as Array<{ content: string }>)[0]!.content = 'done';
      },
    ],
    [
      '/model',
      (copy) => {
        copy.model = 'claude-test-2';
      },
    ],
  ];

  it.each(edits)('points at %s', (pointer, edit) => {
    expect(findDivergence(body, changed(edit))?.pointer).toBe(pointer);
  });

  it('returns both values, absent ones as undefined', () => {
    const longer = changed((b) => b.messages.push({ role: 'user', content: 'and?' }));
    expect(findDivergence(body, longer)).toEqual({
      pointer: '/messages/3',
      recorded: undefined,
      live: { role: 'user', content: 'and?' },
    });
    expect(findDivergence({ a: 1 }, { a: '1' })).toEqual({ pointer: '/a', recorded: 1, live: '1' });
    expect(findDivergence(1, 2)?.pointer).toBe('');
  });

  it('escapes ~ and / in keys', () => {
    expect(findDivergence({ 'a/b': { '~c': 1 } }, { 'a/b': { '~c': 2 } })?.pointer).toBe(
      '/a~1b/~0c',
    );
  });

  it('applies normalisers to both sides before comparing', () => {
    const stamp: Normaliser = (value) =>
      JSON.parse(JSON.stringify(value).replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>'));
    const recorded = { text: 'now is 2025-03-01T09:00:00.000Z' };
    const live = { text: 'now is 2026-01-02T10:11:12.000Z' };
    expect(findDivergence(recorded, live)?.pointer).toBe('/text');
    expect(findDivergence(recorded, live, { normalisers: [stamp] })).toBeUndefined();
    expect(live.text).toBe('now is 2026-01-02T10:11:12.000Z');
  });

  it('adds a line diff for long strings and describes short values on two lines', () => {
    const recorded = [
      'line 1',
      'line 2',
      'line 3',
      'Write amounts as "428.00 yuan".',
      'line 5',
    ].join('\n');
    const divergence = findDivergence({ s: recorded }, { s: recorded.replace('yuan', 'CNY') });
    expect(divergence?.diff).toBe(
      [
        '  @@ line 4',
        '  line 2',
        '  line 3',
        '- Write amounts as "428.00 yuan".',
        '+ Write amounts as "428.00 CNY".',
        '  line 5',
      ].join('\n'),
    );
    expect(describeDivergence(divergence!)).toBe(divergence?.diff);
    expect(describeDivergence({ pointer: '/model', recorded: 'a', live: undefined })).toBe(
      '- recorded: "a"\n+ live:     (absent)',
    );
  });
});

describe('describeDivergence: what reaches reports/latest.md', () => {
  const KEY = 'sk-ant-api03-PLANTED0123456789abcdef';

  it('masks credentials, card numbers and secret header values in the values it prints', () => {
    const recorded = {
      metadata: { 'x-api-key': 'short-secret', note: 'card 6222020200112233445' },
    };
    const live = { metadata: { 'x-api-key': 'short-secret', note: `key ${KEY}` } };
    const divergence = findDivergence({ tools: [recorded] }, { tools: [live] });
    expect(divergence?.pointer).toBe('/tools/0/metadata/note');
    const whole = findDivergence(recorded, { other: live });
    const printed = [divergence, whole].map((found) => describeDivergence(found!)).join('\n');
    expect(printed).toContain('card 6222****3445');
    expect(printed).toContain('key sk-ant-[redacted]');
    expect(printed).toContain('"x-api-key":"[redacted]"');
    for (const secret of ['6222020200112233445', 'PLANTED', 'short-secret']) {
      expect(printed).not.toContain(secret);
    }
  });

  it('masks them in the line diff of long strings too', () => {
    const long = (tail: string) => `${'the refund desk answers politely. '.repeat(4)}\n${tail}`;
    const divergence = findDivergence(
      { system: long('payee 6222 0202 0011 2233 445') },
      { system: long(`Authorization: Bearer ${KEY}`) },
    );
    const printed = describeDivergence(divergence!);
    expect(printed).toContain('- payee 6222****3445');
    expect(printed).toContain('+ Authorization: [redacted]');
    expect(printed).not.toContain('PLANTED');
  });

  it('says so when the texts differ only inside what it masks', () => {
    const long = (card: string) => `${'x'.repeat(90)} card ${card}`;
    const divergence = findDivergence(
      { text: long('6222020200112233445') },
      { text: long('6222020211112233445') },
    );
    expect(describeDivergence(divergence!)).toBe(
      '  (the texts differ only inside a masked card number or credential)',
    );
  });
});
