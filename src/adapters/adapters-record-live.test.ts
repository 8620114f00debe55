import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorMessage } from '../core/errors.js';
import { defineAgent } from '../eval/spec/agent-spec.js';
import { readEvalSettings } from '../eval/spec/settings.js';
import type { TaskDefinition } from '../eval/spec/task-definition.js';
import { runTrial } from '../eval/trial/trial-runner.js';
import { formatSseEvent } from '../model-api/sse.js';
import { resealed } from '../replay/testing/cassettes.js';
import {
  type HostileHandler,
  json,
  startHostileApi,
  streamOf,
} from '../runtime/testing/hostile-api.js';
import { createChatCompletionsAgent } from './chat-completions-agent.js';
import { createChatCompletion } from './chat-completions-client.js';
import { chatStreamOf, chatStreamText, chunks, completion } from './testing/chat-answers.js';
import type { AgentAdapter, Provider } from './types.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'harness-evals-record-live-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function taskFor(id: string, provider: Provider, run: AgentAdapter): TaskDefinition {
  return {
    agent: defineAgent({ suite: 'record-live', variants: ['v1'], provider, run }),
    id,
    title: 'stream type',
    prompt: 'Say hi',
    check: () => {},
  };
}

const settings = (mode: 'record' | 'replay') =>
  readEvalSettings({
    HARNESS_EVAL_ROOT: root,
    HARNESS_EVAL_MODE: mode,
    HARNESS_EVAL_SOURCE: 'live',
    HARNESS_EVAL_TRIAL: '1',
  });

/** Record `id` against a live API answering `handlers` in turn. */
async function recordLive(
  id: string,
  provider: Provider,
  run: AgentAdapter,
  handlers: HostileHandler[],
) {
  const api = await startHostileApi();
  const prefix = provider === 'openai' ? 'OPENAI' : 'ANTHROPIC';
  vi.stubEnv(`${prefix}_BASE_URL`, api.url);
  vi.stubEnv(`${prefix}_API_KEY`, 'test-key-not-secret');
  const task = taskFor(id, provider, run);
  try {
    api.script(...handlers);
    const recorded = await runTrial({
      task,
      variant: 'v1',
      trial: 1,
      settings: settings('record'),
    });
    return { task, recorded, requests: api.requests.length };
  } finally {
    vi.unstubAllEnvs();
    await api.close();
  }
}

/** recordLive, then replay the cassette it wrote. */
async function recordAndReplay(...args: Parameters<typeof recordLive>) {
  const { task, recorded, requests } = await recordLive(...args);
  const replayed = await runTrial({ task, variant: 'v1', trial: 1, settings: settings('replay') });
  const cassette = await readFile(cassetteOf(task.id), 'utf8');
  return { recorded, replayed, requests, cassette: JSON.parse(cassette) };
}

const cassetteOf = (id: string) => join(root, 'fixtures', id, 'v1', 'trial-1.json');

/** `body` sent whole, labelled `contentType` (no content type when undefined). */
const labelled =
  (body: string, contentType: string | undefined): HostileHandler =>
  (response) => {
    response.writeHead(200, contentType === undefined ? {} : { 'content-type': contentType });
    response.end(body);
  };

const chatStreamLabelled = chatStreamText(chatStreamOf('labelled'));
const messagesStreamText = streamOf('labelled')
  .map((data) => formatSseEvent({ event: data.type, data }))
  .join('');

/** An adapter that streams through @anthropic-ai/sdk, as many hand-written agents do. */
const sdkStreaming: AgentAdapter = async (context) => {
  const client = new Anthropic({
    apiKey: context.apiKey,
    baseURL: context.baseURL,
    fetch: context.fetch,
    maxRetries: 2,
  });
  const message = await client.messages
    .stream({ model: context.model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
    .finalMessage();
  const [block] = message.content;
  return { answer: block?.type === 'text' ? block.text : '' };
};

describe('recording a stream whatever content type the server labels it with', () => {
  it.each([
    ['text/plain', 'text/plain'],
    ['no content type', undefined],
  ])(
    'records a Chat Completions stream served as %s as a stream, and replays it',
    async (name, contentType) => {
      const { recorded, replayed, requests, cassette } = await recordAndReplay(
        `S-chat-${name.replaceAll(/\W+/g, '-')}`,
        'openai',
        createChatCompletionsAgent({ tools: [], stream: true }),
        [labelled(chatStreamLabelled, contentType)],
      );
      expect(recorded.record.messages).toEqual([]);
      expect(recorded.run?.answer).toBe('labelled');
      expect(requests).toBe(1);
      expect(cassette.exchanges).toHaveLength(1);
      expect(cassette.exchanges[0].response.events.at(-1)).toEqual({
        event: 'message',
        data: '[DONE]',
      });
      expect(replayed.record.messages).toEqual([]);
      expect(replayed.run?.answer).toBe('labelled');
    },
  );

  it('records a Messages API stream the SDK read from a text/plain answer, and replays it', async () => {
    const { recorded, replayed, cassette } = await recordAndReplay(
      'S-messages-text-plain',
      'anthropic',
      sdkStreaming,
      [labelled(messagesStreamText, 'text/plain')],
    );
    expect(recorded.record.messages).toEqual([]);
    expect(recorded.run?.answer).toBe('labelled');
    expect(cassette.exchanges).toHaveLength(1);
    expect(cassette.exchanges[0].response.events[0].event).toBe('message_start');
    expect(replayed.record.messages).toEqual([]);
    expect(replayed.run?.answer).toBe('labelled');
  });

  it('replays an older cassette that kept a text/plain Chat Completions stream as its text', async () => {
    const id = 'S-chat-older-cassette';
    const run = createChatCompletionsAgent({ tools: [], stream: true });
    await recordLive(id, 'openai', run, [labelled(chatStreamLabelled, 'text/event-stream')]);
    // What the tape kept of a text/plain stream before it read a stream request's answer as SSE.
    const cassette = JSON.parse(await readFile(cassetteOf(id), 'utf8'));
    const { status } = cassette.exchanges[0].response;
    cassette.exchanges[0].response = {
      status,
      headers: { 'content-type': 'text/plain' },
      body: chatStreamLabelled,
    };
    // As that older build wrote it: content and hash agree.
    await writeFile(cassetteOf(id), resealed(cassette));
    const task = taskFor(id, 'openai', run);
    const replayed = await runTrial({
      task,
      variant: 'v1',
      trial: 1,
      settings: settings('replay'),
    });
    expect(replayed.record.messages).toEqual([]);
    expect(replayed.run?.answer).toBe('labelled');
  });

  it('still folds a JSON answer to a stream request as malformed, and records the stream that followed', async () => {
    const { recorded, replayed, requests, cassette } = await recordAndReplay(
      'S-chat-json-to-stream',
      'openai',
      createChatCompletionsAgent({ tools: [], stream: true }),
      [json(completion()), labelled(chatStreamLabelled, 'text/event-stream')],
    );
    expect(recorded.record.messages).toEqual([]);
    expect(requests).toBe(2);
    expect(cassette.exchanges).toHaveLength(1);
    expect(cassette.exchanges[0].retries).toEqual([{ status: 200, latencyMs: expect.any(Number) }]);
    expect(replayed.run?.answer).toBe('labelled');
  });
});

/** An adapter on Ollama's native API: `POST /api/chat` with `stream: true` answers NDJSON, not SSE. */
const ollamaNative: AgentAdapter = async (context) => {
  const response = await context.fetch(`${context.baseURL}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: context.model,
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    }),
  });
  const lines = (await response.text()).split('\n').filter(Boolean);
  return { answer: lines.map((line) => JSON.parse(line).message.content).join('') };
};

describe('recording a stream that is not a model API', () => {
  it('records an NDJSON stream (stream: true, application/x-ndjson) as its text, and replays it', async () => {
    const ndjson = [
      '{"message":{"content":"hel"},"done":false}',
      '{"message":{"content":"lo"},"done":true}',
      '',
    ].join('\n');
    const { recorded, replayed, cassette } = await recordAndReplay(
      'S-ollama-ndjson',
      'openai',
      ollamaNative,
      [labelled(ndjson, 'application/x-ndjson')],
    );
    expect(recorded.run?.answer).toBe('hello');
    expect(cassette.exchanges).toHaveLength(1);
    expect(cassette.exchanges[0].response).toEqual({
      status: 200,
      headers: { 'content-type': 'application/x-ndjson' },
      body: ndjson,
    });
    expect(replayed.record.messages).toEqual([]);
    expect(replayed.run?.answer).toBe('hello');
  });
});

describe('recording an adapter that reports its own failure', () => {
  it("fails the recording with the adapter's detail, not the tape's verdict on the last answer", async () => {
    // A custom adapter without retries: a broken stream fails its only call, and it says so.
    const run: AgentAdapter = async (context) => {
      try {
        await createChatCompletion({
          fetch: context.fetch,
          baseURL: context.baseURL,
          apiKey: context.apiKey,
          body: { model: context.model, messages: [{ role: 'user', content: 'hi' }], stream: true },
        });
        return { answer: 'unreachable' };
      } catch (error) {
        return {
          answer: '',
          status: 'error',
          detail: `my adapter gave up: ${errorMessage(error)}`,
        };
      }
    };
    const { recorded, requests } = await recordLive('S-adapter-error', 'openai', run, [
      chunks(chatStreamOf('partial').slice(0, 2), { done: false }),
    ]);
    expect(requests).toBe(1);
    expect(recorded.record.outcome).toBe('errored');
    expect(recorded.record.messages).toHaveLength(1);
    expect(recorded.record.messages[0]).toMatch(
      /^recording failed, nothing written: my adapter gave up: malformed response from the Chat Completions API at .*: the stream ended before data: \[DONE\]/,
    );
    await expect(readFile(cassetteOf('S-adapter-error'))).rejects.toThrow(/ENOENT/);
  });
});
