import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createChatCompletionsAgent } from '../../adapters/chat-completions-agent.js';
import type { AgentAdapter, AgentContext, Provider } from '../../adapters/types.js';
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

// The paths around the given fetch that the guard covers (docs/providers.md, "The recording
// guard"): each agent first makes one model request through the given fetch, so only the
// escape itself can refuse the recording.
const CHAT_BODY = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
const chatUrl = () => `${process.env.OPENAI_BASE_URL}/chat/completions`;
const throughGivenFetch = (context: AgentContext) =>
  context.fetch(`${context.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${context.apiKey}` },
    body: CHAT_BODY,
  });

/** POST the chat body to `url` over a raw TCP socket: the HTTP text written by hand. */
function rawSocketPost(url: string): Promise<string> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.end(
        `POST ${pathname} HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\ncontent-length: ${CHAT_BODY.length}\r\nconnection: close\r\n\r\n${CHAT_BODY}`,
      );
    });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

/** POST the chat body to `url` with node:http's request. */
function httpPost(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json' } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      },
    );
    sent.on('error', reject);
    sent.end(CHAT_BODY);
  });
}

/** POST the chat body to `url` from a worker thread, with the worker's own fetch. */
function workerPost(url: string): Promise<string> {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     fetch(workerData.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: workerData.body })
       .then((r) => r.text(), (e) => 'failed: ' + e.message).then((text) => parentPort.postMessage(text));`,
    { eval: true, workerData: { url, body: CHAT_BODY } },
  );
  return new Promise((resolve, reject) => {
    worker.once('message', (text: string) => {
      void worker.terminate();
      resolve(text);
    });
    worker.once('error', reject);
  });
}

/** POST the chat body to `url` from a child process, with its own fetch. */
function childPost(url: string): Promise<string> {
  const script = `fetch(${JSON.stringify(url)}, { method: 'POST', headers: { 'content-type': 'application/json' }, body: ${JSON.stringify(CHAT_BODY)} }).then((r) => r.text()).then((t) => process.stdout.write(t), (e) => process.stdout.write('failed: ' + e.message));`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', script], (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
  });
}

/** A queue of model calls that a module starts when it loads, before any trial: its calls run in the module's context. */
function startModuleQueue() {
  const jobs: Array<{ url: string; done: (text: string) => void }> = [];
  let wake: (() => void) | undefined;
  void (async () => {
    for (;;) {
      const job = jobs.shift();
      if (!job) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        continue;
      }
      const response = await moduleFetch(job.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: CHAT_BODY,
      }).catch((error: Error) => ({ text: async () => `failed: ${error.message}` }));
      job.done(await response.text());
    }
  })();
  return (url: string) =>
    new Promise<string>((done) => {
      jobs.push({ url, done });
      wake?.();
    });
}
const moduleQueue = startModuleQueue();

describe('recording: the guard, on paths around the given fetch', () => {
  const refusedFor = (record: { outcome: string; messages: string[] }, what: RegExp) => {
    expect(record.outcome).toBe('errored');
    expect(record.messages).toHaveLength(1);
    expect(record.messages[0]).not.toContain('\n');
    expect(record.messages[0]).toMatch(/^recording failed, nothing written: recording refused: /);
    expect(record.messages[0]).toMatch(what);
  };

  it('refuses an agent that also calls the model over a raw TCP socket', async () => {
    const { recorded, kept } = await recordLive('G-socket', 'openai', async (context) => {
      await throughGivenFetch(context);
      return { answer: await rawSocketPost(chatUrl()) };
    });
    refusedFor(
      recorded.record,
      /the agent opened a TCP connection to 127\.0\.0\.1:\d+ around the given fetch/,
    );
    expect(kept).toBe(true);
  });

  it('refuses an agent that also calls the model with node:http request', async () => {
    const { recorded, kept } = await recordLive('G-http', 'openai', async (context) => {
      await throughGivenFetch(context);
      return { answer: await httpPost(chatUrl()).catch((error: Error) => error.message) };
    });
    refusedFor(
      recorded.record,
      /the agent (sent POST|opened a TCP connection to) .*127\.0\.0\.1:\d+.* around the given fetch/,
    );
    expect(kept).toBe(true);
  });

  it('refuses an agent that starts a worker thread, whose network it cannot see', async () => {
    const { recorded, kept } = await recordLive('G-worker', 'openai', async (context) => {
      await throughGivenFetch(context);
      return { answer: await workerPost(chatUrl()) };
    });
    refusedFor(recorded.record, /the agent started a worker thread around the given fetch/);
    expect(kept).toBe(true);
  });

  it('refuses an agent whose only model call is made by a child process: no request came through the given fetch', async () => {
    const { recorded, kept, api } = await recordLive('G-child', 'openai', async () => ({
      answer: await childPost(chatUrl()),
    }));
    // The child reached the API: the guard cannot see into another process.
    expect(api.requests).toHaveLength(1);
    refusedFor(recorded.record, /made no model request through the given fetch/);
    expect(kept).toBe(true);
  });

  it('refuses an agent whose only model call is made by a queue its module started before the trial', async () => {
    const { recorded, kept, api } = await recordLive('G-queue', 'openai', async () => ({
      answer: await moduleQueue(chatUrl()),
    }));
    // The queue reached the API from the module's context, not the trial's: not seen.
    expect(api.requests).toHaveLength(1);
    refusedFor(recorded.record, /made no model request through the given fetch/);
    expect(kept).toBe(true);
  });
});
