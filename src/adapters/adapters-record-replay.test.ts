import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defineAgent } from '../eval/spec/agent-spec.js';
import { readEvalSettings } from '../eval/spec/settings.js';
import type { TaskDefinition } from '../eval/spec/task-definition.js';
import { runTrial } from '../eval/trial/trial-runner.js';
import { type HostileHandler, json, startHostileApi } from '../runtime/testing/hostile-api.js';
import { defineModelScript } from '../simulator/model-script.js';
import { createAnthropicToolLoop } from './anthropic-tool-loop.js';
import { createChatCompletionsAgent } from './chat-completions-agent.js';
import { createResponsesAgent } from './responses-agent.js';
import { chatStreamOf, chunks, completion, delta } from './testing/chat-answers.js';
import type { AdapterTool, AgentAdapter, Provider } from './types.js';

const weather: AdapterTool = {
  name: 'get_weather',
  description: 'Current weather of a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
  run: (input) => `${String(input.city)}: 4 °C, rain`,
};

const script = defineModelScript({
  name: 'weather-script',
  turns: [
    { toolCalls: [{ name: 'get_weather', input: { city: 'Oslo' } }] },
    { text: 'It is 4 °C and raining in Oslo.' },
  ],
});

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'harness-evals-adapters-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function taskFor(id: string, provider: Provider, run: AgentAdapter): TaskDefinition {
  return {
    agent: defineAgent({ suite: 'adapters', variants: ['v1'], provider, run, modelScript: script }),
    id,
    title: 'weather',
    prompt: 'What is the weather in Oslo?',
    check: () => {},
  };
}

const settings = (mode: 'record' | 'replay') =>
  readEvalSettings({
    HARNESS_EVAL_ROOT: root,
    HARNESS_EVAL_MODE: mode,
    HARNESS_EVAL_SOURCE: 'simulator',
    HARNESS_EVAL_TRIAL: '1',
  });

const adapters: Array<[string, Provider, (system: string) => AgentAdapter, string?]> = [
  [
    'the hand-written @anthropic-ai/sdk loop',
    'anthropic',
    (system) => createAnthropicToolLoop({ system, tools: [weather] }),
  ],
  [
    'the Chat Completions client (JSON)',
    'openai',
    (system) => createChatCompletionsAgent({ system, tools: [weather] }),
  ],
  [
    'the Chat Completions client (SSE)',
    'openai',
    (system) => createChatCompletionsAgent({ system, tools: [weather], stream: true }),
  ],
  [
    'the Responses client (JSON)',
    'openai',
    (system) => createResponsesAgent({ system, tools: [weather] }),
    '/responses',
  ],
  [
    'the Responses client (SSE)',
    'openai',
    (system) => createResponsesAgent({ system, tools: [weather], stream: true }),
    '/responses',
  ],
];

describe('agent adapters through record and replay', () => {
  for (const [name, provider, build, path] of adapters) {
    it(`${name}: records against the model script, replays the same run, and a changed request is stale`, async () => {
      const id = `A-${path ? 'responses' : provider}-${name.includes('SSE') ? 'sse' : 'json'}`;
      const task = taskFor(id, provider, build('You report the weather.'));
      const recorded = await runTrial({
        task,
        variant: 'v1',
        trial: 1,
        settings: settings('record'),
      });
      expect(recorded.record.messages).toEqual([]);
      expect(recorded.run?.answer).toBe('It is 4 °C and raining in Oslo.');
      expect(recorded.run?.toolCalls.map((call) => [call.tool, call.input])).toEqual([
        ['get_weather', { city: 'Oslo' }],
      ]);
      expect(recorded.run?.stats.steps).toBe(2);
      expect(recorded.run?.stats.inputTokens).toBeGreaterThan(0);
      expect(recorded.run?.stats.outputTokens).toBeGreaterThan(0);
      const cassette = JSON.parse(
        await readFile(join(root, 'fixtures', id, 'v1', 'trial-1.json'), 'utf8'),
      );
      expect(cassette.meta.source).toBe('simulator');
      expect(cassette.exchanges[0].request.path).toBe(
        path ?? (provider === 'openai' ? '/chat/completions' : '/v1/messages'),
      );
      expect(cassette.meta).toMatchObject({
        provider,
        sdk: provider === 'openai' ? 'harness-evals' : '@anthropic-ai/sdk',
      });
      if (name.includes('SSE'))
        expect(cassette.exchanges[0].response.events.at(-1).data).toMatchObject(
          path ? { type: 'response.completed' } : {},
        );
      if (name.includes('SSE') && !path)
        expect(cassette.exchanges[0].response.events.at(-1).data).toBe('[DONE]');

      const replayed = await runTrial({
        task,
        variant: 'v1',
        trial: 1,
        settings: settings('replay'),
      });
      expect(replayed.record.outcome).toBe('passed');
      expect(replayed.run?.answer).toBe(recorded.run?.answer);
      // Model time is the recorded latency in replay, measured around the call when recording.
      const { modelMs, ...replayedStats } = replayed.run!.stats;
      const { modelMs: _measured, ...recordedStats } = recorded.run!.stats;
      expect(replayedStats).toEqual(recordedStats);
      expect(replayed.record.modelLatenciesMs).toHaveLength(2);
      expect(modelMs).toBe(replayed.record.modelLatenciesMs.reduce((sum, ms) => sum + ms, 0));
      const trace = (await readFile(join(root, replayed.record.tracePath!), 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).type);
      expect(trace).toEqual(['run_start', 'tool_call', 'run_end']);
      // The transcript the worker hands the HTML report, decoded from the replayed cassette,
      // with the adapter's trace.
      const loaded = replayed.transcript;
      expect(loaded).toMatchObject({
        format: path
          ? 'openai-responses'
          : provider === 'openai'
            ? 'openai-chat-completions'
            : 'anthropic-messages',
        trace: [{ type: 'run_start', mode: 'adapter' }, { type: 'tool_call' }, { type: 'run_end' }],
      });
      const transcript = loaded && 'transcript' in loaded ? loaded.transcript : undefined;
      expect([transcript?.system, transcript?.user]).toEqual([
        'You report the weather.',
        'What is the weather in Oslo?',
      ]);
      const toolBlocks = transcript?.turns.flatMap((turn) =>
        turn.blocks.filter((block) => block.kind === 'tool'),
      );
      expect(toolBlocks).toMatchObject([
        {
          call: {
            name: 'get_weather',
            input: '{\n  "city": "Oslo"\n}',
            result: 'Oslo: 4 °C, rain',
          },
        },
      ]);
      expect(transcript?.finalAnswer).toBe('It is 4 °C and raining in Oslo.');

      const changed = taskFor(id, provider, build('You report the weather, briefly.'));
      const stale = await runTrial({
        task: changed,
        variant: 'v1',
        trial: 1,
        settings: settings('replay'),
      });
      expect(stale.record.outcome).toBe('stale');
      expect(stale.record.messages[0]).toMatch(
        /exchanges\[0\] differs in body at \/(system|messages\/0\/content|instructions)/,
      );
      expect(stale.record.messages[0]).toContain(
        `re-record: npm run record -- --task ${id} --variant v1 --trial 1 --simulated`,
      );
    });
  }

  it('fails the recording with one line naming the task when the script runs out of turns, and writes nothing', async () => {
    const short = defineModelScript({
      name: 'short',
      turns: [{ toolCalls: [{ name: 'get_weather', input: { city: 'Oslo' } }] }],
    });
    const task: TaskDefinition = {
      ...taskFor('A-short', 'openai', createChatCompletionsAgent({ tools: [weather] })),
    };
    task.modelScript = short;
    const outcome = await runTrial({ task, variant: 'v1', trial: 1, settings: settings('record') });
    expect(outcome.record.outcome).toBe('errored');
    expect(outcome.record.messages).toHaveLength(1);
    expect(outcome.record.messages[0]).toMatch(
      /^recording failed, nothing written: A-short: nothing answers the agent's requests offline \(model script 'short' has no answer for request 2\): add a model script/,
    );
    await expect(readFile(join(root, 'fixtures', 'A-short', 'v1', 'trial-1.json'))).rejects.toThrow(
      /ENOENT/,
    );
  });
});

describe('recording an adapter against a live API', () => {
  it("waits out a 429's retry-after in real time before the retry", async () => {
    const api = await startHostileApi();
    vi.stubEnv('OPENAI_BASE_URL', api.url);
    vi.stubEnv('OPENAI_API_KEY', 'test-key-not-secret');
    try {
      const arrived: number[] = [];
      const timed =
        (handler: HostileHandler): HostileHandler =>
        (response, request) => {
          arrived.push(performance.now());
          handler(response, request);
        };
      api.script(
        timed(json({ error: { message: 'slow down' } }, 429, { 'retry-after': '0.4' })),
        timed(
          json({
            choices: [
              { index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' },
            ],
            usage: { prompt_tokens: 3, completion_tokens: 1 },
          }),
        ),
      );
      const task = taskFor('A-live-429', 'openai', createChatCompletionsAgent({ tools: [] }));
      const recorded = await runTrial({
        task,
        variant: 'v1',
        trial: 1,
        settings: readEvalSettings({
          HARNESS_EVAL_ROOT: root,
          HARNESS_EVAL_MODE: 'record',
          HARNESS_EVAL_SOURCE: 'live',
          HARNESS_EVAL_TRIAL: '1',
        }),
      });
      expect(recorded.record.messages).toEqual([]);
      expect(arrived).toHaveLength(2);
      // The live API asked for 0.4 s: a retry sooner is what gets a key throttled harder.
      expect(arrived[1]! - arrived[0]!).toBeGreaterThanOrEqual(390);
    } finally {
      vi.unstubAllEnvs();
      await api.close();
    }
  });
});

describe('recording an adapter against a live API that fails some attempts', () => {
  const liveSettings = () =>
    readEvalSettings({
      HARNESS_EVAL_ROOT: root,
      HARNESS_EVAL_MODE: 'record',
      HARNESS_EVAL_SOURCE: 'live',
      HARNESS_EVAL_TRIAL: '1',
    });
  /** Record `id` against a hostile API answering `handlers` in turn. */
  async function recordLive(id: string, run: AgentAdapter, handlers: HostileHandler[]) {
    const api = await startHostileApi();
    vi.stubEnv('OPENAI_BASE_URL', api.url);
    vi.stubEnv('OPENAI_API_KEY', 'test-key-not-secret');
    try {
      api.script(...handlers);
      const task = taskFor(id, 'openai', run);
      const recorded = await runTrial({ task, variant: 'v1', trial: 1, settings: liveSettings() });
      return { task, recorded, requests: api.requests.length };
    } finally {
      vi.unstubAllEnvs();
      await api.close();
    }
  }
  const slowDown = json({ error: { message: 'slow down' } }, 429, { 'retry-after-ms': '1' });

  it('counts model calls as the replay of its cassette does: one per answered call, not per attempt', async () => {
    const toolCall = completion({
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
          },
        ],
      },
      finish_reason: 'tool_calls',
    });
    const { task, recorded, requests } = await recordLive(
      'A-live-steps',
      createChatCompletionsAgent({ tools: [weather] }),
      [slowDown, json(toolCall), slowDown, slowDown, json(completion())],
    );
    expect(recorded.record.messages).toEqual([]);
    expect(requests).toBe(5);
    const replayed = await runTrial({
      task,
      variant: 'v1',
      trial: 1,
      settings: settings('replay'),
    });
    expect(replayed.record.outcome).toBe('passed');
    expect(replayed.run?.stats.steps).toBe(2);
    expect(recorded.run?.stats).toEqual(replayed.run?.stats);
    expect(recorded.record.modelLatenciesMs).toEqual(replayed.record.modelLatenciesMs);
  });

  it('gives id-less tool calls of two turns distinct ids, and replays the recording to the same requests', async () => {
    const idLessCall = json(
      completion({
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [
            { type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
          ],
        },
        finish_reason: 'tool_calls',
      }),
    );
    const { task, recorded } = await recordLive(
      'A-live-id-less',
      createChatCompletionsAgent({ tools: [weather] }),
      [idLessCall, idLessCall, json(completion())],
    );
    expect(recorded.record.messages).toEqual([]);
    const cassette = JSON.parse(
      await readFile(join(root, 'fixtures', task.id, 'v1', 'trial-1.json'), 'utf8'),
    );
    const last: Array<{ tool_calls?: Array<{ id: string }>; tool_call_id?: string }> =
      cassette.exchanges[2].request.body.messages;
    const callIds = last.flatMap((message) => message.tool_calls?.map((call) => call.id) ?? []);
    expect(callIds).toHaveLength(2);
    expect(new Set(callIds).size).toBe(2);
    expect(last.flatMap((message) => message.tool_call_id ?? [])).toEqual(callIds);
    const replayed = await runTrial({
      task,
      variant: 'v1',
      trial: 1,
      settings: settings('replay'),
    });
    expect(replayed.record.outcome).toBe('passed');
    expect(recorded.run?.stats).toEqual(replayed.run?.stats);
  });

  it('never records a stream that broke: the retried stream is folded into the exchange that followed it', async () => {
    const { task, recorded, requests } = await recordLive(
      'A-live-broken-stream',
      createChatCompletionsAgent({ tools: [], stream: true }),
      [
        chunks([delta({ content: 'x' }), { error: { message: 'upstream overloaded' } }]),
        chunks(chatStreamOf('partial').slice(0, 2), { cut: true }),
        chunks(chatStreamOf('whole')),
      ],
    );
    expect(recorded.record.messages).toEqual([]);
    expect(recorded.run?.answer).toBe('whole');
    expect(requests).toBe(3);
    const cassette = JSON.parse(
      await readFile(join(root, 'fixtures', task.id, 'v1', 'trial-1.json'), 'utf8'),
    );
    expect(cassette.exchanges).toHaveLength(1);
    expect(cassette.exchanges[0].retries.map((retry: { status: number }) => retry.status)).toEqual([
      200, 200,
    ]);
    expect(JSON.stringify(cassette)).not.toMatch(/upstream overloaded|partial/);
    const replayed = await runTrial({
      task,
      variant: 'v1',
      trial: 1,
      settings: settings('replay'),
    });
    expect(replayed.run?.answer).toBe('whole');
    expect(recorded.run?.stats).toEqual(replayed.run?.stats);
  });
});

describe('a replayed trial and the network', () => {
  it('refuses an agent that calls a model host itself instead of the fetch it was given: errored, naming the host, and the host gets nothing', async () => {
    let requests = 0;
    const host = createServer((_request, response) => {
      requests += 1;
      response.end('{}');
    });
    host.listen(0, '127.0.0.1');
    await once(host, 'listening');
    const url = `http://127.0.0.1:${(host.address() as { port: number }).port}/v1/messages`;
    try {
      const id = 'A-own-client';
      const recorded = await runTrial({
        task: taskFor(id, 'anthropic', createAnthropicToolLoop({ tools: [weather] })),
        variant: 'v1',
        trial: 1,
        settings: settings('record'),
      });
      expect(recorded.record.messages).toEqual([]);
      // The same task, now with an agent that ignores context.fetch and calls a host directly.
      const ownClient: AgentAdapter = async () => {
        await fetch(url, { method: 'POST', body: '{}' });
        return { answer: 'unreachable', toolCalls: [] };
      };
      const replayed = await runTrial({
        task: taskFor(id, 'anthropic', ownClient),
        variant: 'v1',
        trial: 1,
        settings: settings('replay'),
      });
      expect(replayed.record.outcome).toBe('errored');
      expect(replayed.record.messages[0]).toContain(`tried to reach ${url}`);
      expect(requests).toBe(0);
    } finally {
      host.close();
    }
  });
});
