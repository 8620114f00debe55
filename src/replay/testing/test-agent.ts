import Anthropic from '@anthropic-ai/sdk';

export interface TestAgentSpec {
  model: string;
  system: string;
  tools: Anthropic.Tool[];
  question: string;
  /** What the tool returns to the model. */
  toolResult: string;
  stream?: boolean;
  /** Stop after this many model calls, returning '(stopped)'. */
  maxSteps?: number;
  /** Called after each model call (e.g. to line up concurrent runs). */
  afterCall?: (step: number) => Promise<void>;
}

export const TEST_SYSTEM = [
  'You are the after-sales refund desk.',
  'Refer to payee accounts only in masked form.',
  'Write amounts as "428.00 yuan".',
  'If a promised refund date has passed, start with "Overdue".',
].join('\n');

export const TEST_TOOLS: Anthropic.Tool[] = [
  {
    name: 'get_policy',
    description: 'The refund policy.',
    input_schema: { type: 'object', properties: {} },
  },
  {
    name: 'lookup_order',
    description: 'Look up an order by id.',
    input_schema: {
      type: 'object',
      properties: { order_id: { type: 'string', pattern: '^A-\\d+$' } },
      required: ['order_id'],
    },
  },
];

export function testSpec(overrides: Partial<TestAgentSpec> = {}): TestAgentSpec {
  return {
    model: 'claude-test-1',
    system: TEST_SYSTEM,
    tools: TEST_TOOLS,
    question: 'Where is my refund for order A-1?',
    toolResult: '{"order_id":"A-1","status":"refund pending"}',
    ...overrides,
  };
}

/** A client the way the harness builds one inside a session. */
export function sessionClient(
  session: { baseURL: string; fetch: typeof fetch },
  maxRetries = 0,
): Anthropic {
  return new Anthropic({
    apiKey: 'test-key',
    baseURL: session.baseURL,
    fetch: session.fetch,
    maxRetries,
  });
}

/** A minimal tool loop: ask, run the tool once, ask again; returns the final text. */
export async function runTestAgent(client: Anthropic, spec: TestAgentSpec): Promise<string> {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: spec.question }];
  const maxSteps = spec.maxSteps ?? 4;
  for (let step = 0; step < maxSteps; step++) {
    const params = {
      model: spec.model,
      max_tokens: 256,
      system: [{ type: 'text' as const, text: spec.system }],
      tools: spec.tools,
      messages,
    };
    const message = spec.stream
      ? await client.messages.stream(params).finalMessage()
      : await client.messages.create(params);
    await spec.afterCall?.(step);
    messages.push({ role: 'assistant', content: message.content });
    const call = message.content.find((block) => block.type === 'tool_use');
    if (!call)
      return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    messages.push({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: call.id, content: spec.toolResult }],
    });
  }
  if (spec.maxSteps !== undefined) return '(stopped)';
  throw new Error('test agent: no final answer after 4 steps');
}
