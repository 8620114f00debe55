import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createChatCompletionsAgent } from '../../adapters/chat-completions-agent.js';
import type { AgentAdapter, Provider } from '../../adapters/types.js';
import { json, startHostileApi } from '../../runtime/testing/hostile-api.js';
import { defineAgent } from '../spec/agent-spec.js';
import { readEvalSettings } from '../spec/settings.js';
import { runTrial } from './trial-runner.js';

// What a client built at module level keeps: the fetch there was before recording started.
const moduleFetch = globalThis.fetch;

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'harness-evals-guard-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const chatAnswer = json({
  choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 1 },
});
const messageAnswer = json({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'm',
  content: [{ type: 'text', text: 'hi' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 3, output_tokens: 1 },
});

/** Record trial 1 of `id` against a live API on 127.0.0.1, over an old cassette. */
async function recordLive(id: string, provider: Provider, run: AgentAdapter, model?: string) {
  const api = await startHostileApi();
  const prefix = provider === 'openai' ? 'OPENAI' : 'ANTHROPIC';
  vi.stubEnv(`${prefix}_BASE_URL`, provider === 'openai' ? `${api.url}/v1` : api.url);
  vi.stubEnv(`${prefix}_API_KEY`, 'test-key-not-secret');
  vi.stubEnv('OPENAI_MODEL', '');
  vi.stubEnv('ANTHROPIC_MODEL', '');
  api.script(provider === 'openai' ? chatAnswer : messageAnswer);
  const file = join(root, 'fixtures', id, 'v1', 'trial-1.json');
  const old = '{"an": "old cassette"}\n';
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, old);
  try {
    const agent = defineAgent({
      suite: `guard-${id}`,
      variants: ['v1'],
      provider,
      run,
      ...(model && { model }),
    });
    const recorded = await runTrial({
      task: { agent, id, title: 'guard', prompt: 'hi', check: () => {} },
      variant: 'v1',
      trial: 1,
      settings: readEvalSettings({
        HARNESS_EVAL_ROOT: root,
        HARNESS_EVAL_MODE: 'record',
        HARNESS_EVAL_SOURCE: 'live',
        HARNESS_EVAL_TRIAL: '1',
      }),
    });
    const after = await readFile(file, 'utf8');
    return { recorded, api, kept: after === old, after, baseURL: api.url };
  } finally {
    vi.unstubAllEnvs();
    await api.close();
  }
}

describe('recording: provider-aware agents', () => {
  it("records an OpenAI agent with its provider's default model, and says so in the cassette", async () => {
    const { recorded, api, after } = await recordLive(
      'G-openai',
      'openai',
      createChatCompletionsAgent({ tools: [] }),
    );
    expect(recorded.record.messages).toEqual([]);
    expect(JSON.parse(api.requests[0]!).model).toBe('gpt-4.1-mini');
    expect(JSON.parse(after).meta).toMatchObject({
      provider: 'openai',
      model: 'gpt-4.1-mini',
      sdk: 'harness-evals',
      sdkVersion: expect.stringMatching(/^\d+\.\d+/),
    });
    expect(recorded.record).toMatchObject({
      provider: 'openai',
      model: 'gpt-4.1-mini',
      written: true,
    });
  });

  it('records with the model an agent declares', async () => {
    const { api } = await recordLive(
      'G-own',
      'openai',
      createChatCompletionsAgent({ tools: [] }),
      'qwen3:8b',
    );
    expect(JSON.parse(api.requests[0]!).model).toBe('qwen3:8b');
  });
});

describe('recording: the guard', () => {
  const refused = (record: { outcome: string; messages: string[] }) => {
    expect(record.outcome).toBe('errored');
    expect(record.messages).toHaveLength(1);
    expect(record.messages[0]).not.toContain('\n');
    expect(record.messages[0]).toMatch(
      /^recording failed, nothing written: recording refused: .*pass the given fetch to your client/,
    );
    return record.messages[0]!;
  };

  it('refuses an @anthropic-ai/sdk client that kept the fetch of module load: nothing written, the old cassette byte-identical', async () => {
    const { recorded, kept } = await recordLive('G-module', 'anthropic', async (context) => {
      // As a client built when the module loaded, before recording started (SDKs keep that fetch).
      const client = new Anthropic({
        apiKey: 'module-key-123456',
        baseURL: process.env.ANTHROPIC_BASE_URL,
        fetch: moduleFetch,
        maxRetries: 0,
      });
      const message = await client.messages.create({
        model: context.model,
        max_tokens: 8,
        messages: [{ role: 'user', content: 'hi' }],
      });
      return { answer: message.content[0]?.type === 'text' ? message.content[0].text : '' };
    });
    expect(refused(recorded.record)).toMatch(
      /the agent sent POST http:\/\/127\.0\.0\.1:\d+\/v1\/messages around the given fetch/,
    );
    expect(kept).toBe(true);
  });

  it('refuses a client that sends with the global fetch when it calls, and the request never leaves', async () => {
    const { recorded, kept, api } = await recordLive('G-global', 'openai', async (context) => {
      const response = await globalThis
        .fetch(`${process.env.OPENAI_BASE_URL}/chat/completions`, {
          method: 'POST',
          headers: { authorization: 'Bearer x' },
          body: JSON.stringify({ model: context.model, messages: [] }),
        })
        .catch(() => undefined);
      return { answer: String(response?.status) };
    });
    refused(recorded.record);
    expect(api.requests).toEqual([]);
    expect(kept).toBe(true);
  });

  it('refuses an agent that made no model request at all', async () => {
    const { recorded, kept } = await recordLive('G-none', 'openai', async () => ({
      answer: 'cached',
    }));
    expect(refused(recorded.record)).toContain('made no model request through the given fetch');
    expect(kept).toBe(true);
  });
});
