/**
 * The agents and tasks a team writes on the SDKs it uses (issue 27): the openai SDK's
 * responses.create and the Vercel AI SDK's default openai(model) (the Responses API), JSON and
 * SSE, each given context.fetch; and clients built at module level, which the recording guard
 * must refuse. Text of files for a temporary project that installed the packed package.
 */

/** The exact versions the e2e test installs into its project (never dependencies of this package). */
export const SDK_VERSIONS = {
  openai: '6.30.1',
  ai: '6.0.333',
  '@ai-sdk/openai': '3.0.141',
} as const;

export const SDK_AGENTS = `import Anthropic from '@anthropic-ai/sdk';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { type AgentAdapter, defineAgent, defineModelScript } from 'harness-evals';
import OpenAI from 'openai';
import { z } from 'zod';

export const weatherModel = defineModelScript({
  turns: [
    { toolCalls: [{ name: 'get_weather', input: { city: 'Oslo' } }] },
    { text: 'It is 4 C and raining in Oslo.' },
  ],
});

const weatherOf = (city: string) => city + ': 4 C, rain';
const functionTools = [
  {
    type: 'function' as const,
    name: 'get_weather',
    description: 'Current weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    strict: false,
  },
];

/** responses.create on the openai SDK, with the fetch and base URL it is given. */
function openaiResponses(stream: boolean): AgentAdapter {
  return async (context) => {
    const client = new OpenAI({ apiKey: context.apiKey, baseURL: context.baseURL, fetch: context.fetch, maxRetries: 0 });
    let input: any[] = [{ role: 'user', content: context.prompt }];
    const toolCalls: Array<{ name: string; input: unknown }> = [];
    let inputTokens = 0;
    let outputTokens = 0;
    for (let step = 0; step < 4; step++) {
      let response: any;
      if (stream) {
        const events = await client.responses.create({ model: context.model, input, tools: functionTools, store: false, stream: true });
        for await (const event of events) if (event.type === 'response.completed') response = event.response;
      } else {
        response = await client.responses.create({ model: context.model, input, tools: functionTools, store: false });
      }
      inputTokens += response.usage?.input_tokens ?? 0;
      outputTokens += response.usage?.output_tokens ?? 0;
      const calls = response.output.filter((item: any) => item.type === 'function_call');
      if (calls.length === 0) {
        const answer = response.output
          .flatMap((item: any) => (item.type === 'message' ? item.content.map((part: any) => part.text ?? '') : []))
          .join('');
        return { answer, toolCalls, usage: { inputTokens, outputTokens } };
      }
      input = [...input, ...response.output];
      for (const call of calls) {
        const args = JSON.parse(call.arguments);
        toolCalls.push({ name: call.name, input: args });
        input.push({ type: 'function_call_output', call_id: call.call_id, output: weatherOf(args.city) });
      }
    }
    return { answer: '', toolCalls, status: 'max_steps' };
  };
}

const vercelTools = {
  get_weather: tool({
    description: 'Current weather of a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => weatherOf(city),
  }),
};

/** The Vercel AI SDK's default openai(model), the Responses API, given the fetch and base URL. */
function vercel(stream: boolean): AgentAdapter {
  return async (context) => {
    const model = createOpenAI({ apiKey: context.apiKey, baseURL: context.baseURL, fetch: context.fetch })(context.model);
    const options = { model, tools: vercelTools, stopWhen: stepCountIs(4), prompt: context.prompt, maxRetries: 0 };
    const result = stream ? streamText(options) : await generateText(options);
    const steps = await result.steps;
    const usage = await result.totalUsage;
    return {
      answer: await result.text,
      toolCalls: steps.flatMap((step) => step.toolCalls.map((call) => ({ name: call.toolName, input: call.input }))),
      usage: { inputTokens: usage.inputTokens ?? 0, outputTokens: usage.outputTokens ?? 0 },
    };
  };
}

const agent = (suite: string, run: AgentAdapter) =>
  defineAgent({ suite, variants: ['v1'], provider: 'openai', modelScript: weatherModel, run });
export const responsesJson = agent('responses-json', openaiResponses(false));
export const responsesSse = agent('responses-sse', openaiResponses(true));
export const vercelJson = agent('vercel-json', vercel(false));
export const vercelSse = agent('vercel-sse', vercel(true));

// Built at module level, as production code builds its clients: they never get context.fetch.
const moduleOpenAI = new OpenAI({ apiKey: process.env.OPENAI_API_KEY ?? 'none', baseURL: process.env.OPENAI_BASE_URL, maxRetries: 0 });
const moduleAnthropic = new Anthropic({ apiKey: process.env.ANTHROPIC_API_KEY ?? 'none', baseURL: process.env.ANTHROPIC_BASE_URL, maxRetries: 0 });
const moduleVercel = createOpenAI({ apiKey: process.env.OPENAI_API_KEY ?? 'none', baseURL: process.env.OPENAI_BASE_URL });

export const moduleOpenai = agent('module-openai', async (context) => {
  const response = await moduleOpenAI.responses.create({ model: context.model, input: context.prompt });
  return { answer: response.output_text };
});
export const moduleVercelAgent = agent('module-vercel', async (context) => {
  const result = await generateText({ model: moduleVercel(context.model), prompt: context.prompt, maxRetries: 0 });
  return { answer: result.text };
});
export const moduleAnthropicAgent = defineAgent({
  suite: 'module-anthropic',
  variants: ['v1'],
  run: async (context) => {
    const message = await moduleAnthropic.messages.create({ model: context.model, max_tokens: 64, messages: [{ role: 'user', content: context.prompt }] });
    return { answer: message.content.map((block) => (block.type === 'text' ? block.text : '')).join('') };
  },
});
`;

/** A weather task of `agent` (an export of sdk.agent.ts); `strict` checks the scripted run. */
export const sdkTask = (
  id: string,
  agent: string,
  strict = true,
) => `import { defineTask } from 'harness-evals';
import { expect } from 'vitest';
import { ${agent} } from './sdk.agent.js';

defineTask({
  agent: ${agent},
  id: '${id}',
  title: 'Weather',
  prompt: 'What is the weather in Oslo?',
  check: ({ answer, toolCalls }) => {
    ${strict ? "expect(toolCalls.map((call) => call.tool)).toEqual(['get_weather']);\n    expect(answer).toContain('raining');" : 'expect(typeof answer).toBe("string");'}
  },
});
`;

/** Two dataset tasks on this package's Responses agent: one over a YAML file, one over a CSV file. */
export const DATASET_AGENT = `import { createResponsesAgent, defineAgent, defineModelScript } from 'harness-evals';

export const desk = defineAgent({
  suite: 'desk',
  variants: ['v1'],
  provider: 'openai',
  modelScript: defineModelScript({
    respond: (request) => ({
      text: /refund/i.test(request.prompt) ? 'Refunds take 5 working days.' : 'Please send your order number.',
    }),
  }),
  run: createResponsesAgent({ system: 'You answer customers.', tools: [], stream: true }),
});
`;

export const DATASET_YAML = `cases:
  - id: refund-time
    input: How long does a refund take?
    expected: { mentions: working days }
  - id: where
    input: Where is my parcel?
    expected: { mentions: order number }
  - id: unfair
    input: Can I get a refund in cash?
    expected: { mentions: cash }
    metadata: { note: the script never says cash }
`;

export const DATASET_CSV = `id,input,expected.mentions,channel
a1,"My refund, please?",days,email
a2,Who are you?,order number,chat
a3,Refund status?,days,chat
a4,Hello,order number,phone
`;

export const datasetTask = (
  id: string,
  file: string,
) => `import { defineTask } from 'harness-evals';
import { expect } from 'vitest';
import { desk } from './desk.agent.js';

defineTask({
  agent: desk,
  id: '${id}',
  title: 'Customer questions',
  cases: '${file}',
  check: ({ answer, case: testCase }) => {
    const { mentions } = testCase?.expected as { mentions: string };
    expect(answer).toContain(mentions);
  },
});
`;
