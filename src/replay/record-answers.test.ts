import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatCompletionsAgent } from '../adapters/chat-completions-agent.js';
import { testAgentContext } from '../adapters/testing/agent-context.js';
import { createVirtualClock } from '../core/clock.js';
import { ModelApiError } from '../core/errors.js';
import { createAnthropicModel } from '../model-api/model-client.js';
import { createRetryingModel } from '../model-api/retrying-model.js';
import {
  cutJson,
  type HostileApi,
  type HostileHandler,
  json,
  raw,
  sse,
  startHostileApi,
  streamOf,
  textMessage,
} from '../runtime/testing/hostile-api.js';
import { cassettePath } from './cassette.js';
import { createReplayServer, type ReplayServer } from './replay-server.js';

let api: HostileApi;
let server: ReplayServer;
let root: string;
beforeAll(async () => {
  api = await startHostileApi();
  server = createReplayServer();
  server.listen();
  root = await mkdtemp(path.join(tmpdir(), 'record-answers-'));
});
afterAll(async () => {
  server.close();
  await api.close();
  await rm(root, { recursive: true, force: true });
});

const file = (trial: number) => cassettePath(root, 'T1', 'upgraded', trial);
const request = {
  model: 'claude-test-1',
  max_tokens: 10,
  messages: [{ role: 'user' as const, content: 'hi' }],
};

/** Where trial `trial` of T1 is recorded, from the hostile API. */
const recording = (trial: number, model: string) => ({
  file: file(trial),
  meta: {
    task: 'T1',
    variant: 'upgraded',
    trial,
    now: '2025-03-01T09:00:00.000Z',
    model,
    source: 'live' as const,
  },
  upstreamBaseURL: api.url,
});

const replaying = (trial: number) => ({
  file: file(trial),
  label: { task: 'T1', variant: 'upgraded', trial },
  rerecordCommand: 'npm run record',
});

/** One model call through the retry layer (as `record` makes it), recorded for `trial`. */
function recordOne(trial: number, stream = false) {
  return server.record(recording(trial, 'claude-test-1'), async (session) => {
    const client = new Anthropic({
      apiKey: 'test-key',
      baseURL: session.baseURL,
      fetch: session.fetch,
      maxRetries: 0,
    });
    const model = createRetryingModel({
      model: createAnthropicModel({ client, stream }),
      clock: createVirtualClock({ start: 0 }),
      maxRetries: 2,
    });
    const message = await model.createMessage(request);
    return message.content[0]?.type === 'text' ? message.content[0].text : '';
  });
}

function replayOne(trial: number) {
  return server.replay(replaying(trial), async (session) => {
    const client = new Anthropic({
      apiKey: 'replay',
      baseURL: session.baseURL,
      fetch: session.fetch,
      maxRetries: 0,
    });
    const message = await createAnthropicModel({ client }).createMessage(request);
    return message.content[0]?.type === 'text' ? message.content[0].text : '';
  });
}

/** `text` with status 200 and no content type. */
const unlabelled =
  (text: string): HostileHandler =>
  (response) => {
    response.writeHead(200, {});
    response.end(text);
  };

describe('recording answers the client retried past', () => {
  it.each<[string, HostileHandler]>([
    [
      'a 400 marked x-should-retry: true',
      json({ type: 'error', error: { type: 'invalid_request_error', message: 'transient' } }, 400, {
        'x-should-retry': 'true',
      }),
    ],
    ['a 200 HTML gateway page', raw('<html><body>Bad Gateway</body></html>', 'text/html')],
    [
      'a 200 with usage counts as strings',
      json(textMessage('x', { input_tokens: '5', output_tokens: '1' })),
    ],
    ['a 200 JSON body cut mid-way', cutJson('{"id":"msg_01","type":"message"')],
    // The SDK reads a body as JSON only when labelled so; else it gets the text, not a message.
    ['a 200 message labelled text/plain', raw(JSON.stringify(textMessage('x')), 'text/plain')],
    ['a 200 message without a content type', unlabelled(JSON.stringify(textMessage('x')))],
  ])('folds %s into the next exchange, and the cassette replays', async (_name, first) => {
    api.script(first, json(textMessage('good answer')));
    const recorded = await recordOne(1);
    expect(recorded.error).toBeUndefined();
    expect(recorded.value).toBe('good answer');
    expect(api.requests).toHaveLength(2);
    expect(recorded.cassette?.exchanges).toHaveLength(1);
    expect(recorded.cassette?.exchanges[0]?.retries).toEqual([
      { status: expect.any(Number), latencyMs: expect.any(Number) },
    ]);
    const replayed = await replayOne(1);
    expect(replayed.problem).toBeUndefined();
    expect(replayed.value).toBe('good answer');
  });

  it('folds overloaded_error sent mid-stream into the next exchange', async () => {
    api.script(
      sse([
        streamOf()[0]!,
        { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      ]),
      sse(streamOf('streamed answer')),
    );
    const recorded = await recordOne(2, true);
    expect(recorded.error).toBeUndefined();
    expect(recorded.cassette?.exchanges).toHaveLength(1);
    expect(recorded.cassette?.exchanges[0]?.retries).toEqual([
      { status: 200, latencyMs: expect.any(Number) },
    ]);
  });
});

describe('recording an answer that is never a message', () => {
  it('fails, writes nothing and keeps the old cassette byte-identical', async () => {
    api.script(json(textMessage('the good old answer')));
    expect((await recordOne(3)).error).toBeUndefined();
    const before = await readFile(file(3));

    api.script(raw('<html><body>Bad Gateway</body></html>', 'text/html'));
    const recorded = await recordOne(3);
    expect(recorded.error).toBeInstanceOf(ModelApiError);
    expect((recorded.error as ModelApiError).kind).toBe('malformed_response');
    expect(recorded.cassette).toBeUndefined();
    expect(api.requests).toHaveLength(3);
    expect(await readFile(file(3))).toEqual(before);
  });
});

/** One Chat Completions agent run (no tools, 2 retries), recorded for `trial`. */
function recordChat(trial: number) {
  return server.record(
    recording(trial, 'gpt-test'),
    async (session) =>
      (
        await createChatCompletionsAgent({ tools: [], maxRetries: 2 })(
          testAgentContext({ fetch: session.fetch, baseURL: session.baseURL }),
        )
      ).answer,
  );
}

function replayChat(trial: number) {
  return server.replay(
    replaying(trial),
    async (session) =>
      (
        await createChatCompletionsAgent({ tools: [], maxRetries: 0 })(
          testAgentContext({ fetch: session.fetch, baseURL: session.baseURL }),
        )
      ).answer,
  );
}

const chatAnswer = (text: string, finishReason = 'stop') => ({
  choices: [
    { index: 0, message: { role: 'assistant', content: text }, finish_reason: finishReason },
  ],
  usage: { prompt_tokens: 10, completion_tokens: 5 },
});

describe('recording Chat Completions answers', () => {
  it.each<[string, HostileHandler]>([
    ['a 200 HTML gateway page', raw('<html><body>Bad Gateway</body></html>', 'text/html')],
    ['a 200 with an unknown finish_reason', json(chatAnswer('x', 'eos_token'))],
    ['a 200 without choices', json({ choices: [] })],
  ])('folds %s into the next exchange, and the cassette replays', async (_name, first) => {
    api.script(first, json(chatAnswer('good answer')));
    const recorded = await recordChat(11);
    expect(recorded.error).toBeUndefined();
    expect(recorded.value).toBe('good answer');
    expect(api.requests).toHaveLength(2);
    expect(recorded.cassette?.exchanges).toHaveLength(1);
    expect(recorded.cassette?.exchanges[0]?.response).toMatchObject({
      body: chatAnswer('good answer'),
    });
    expect(recorded.cassette?.exchanges[0]?.retries).toEqual([
      { status: 200, latencyMs: expect.any(Number) },
    ]);
    const replayed = await replayChat(11);
    expect(replayed.problem).toBeUndefined();
    expect(replayed.value).toBe('good answer');
  });

  it('records a chat completion labelled text/plain as the answer it is, as the client reads it', async () => {
    api.script(raw(JSON.stringify(chatAnswer('plain answer')), 'text/plain'));
    const recorded = await recordChat(13);
    expect(recorded.error).toBeUndefined();
    expect(recorded.value).toBe('plain answer');
    expect(recorded.cassette?.exchanges).toHaveLength(1);
    expect(recorded.cassette?.exchanges[0]?.response).toMatchObject({
      body: chatAnswer('plain answer'),
    });
    const replayed = await replayChat(13);
    expect(replayed.problem).toBeUndefined();
    expect(replayed.value).toBe('plain answer');
  });

  it('fails, writes nothing and keeps the old cassette when no answer is a chat completion', async () => {
    api.script(json(chatAnswer('the good old answer')));
    expect((await recordChat(12)).error).toBeUndefined();
    const before = await readFile(file(12));

    api.script(json({ choices: [{ index: 0, message: { role: 'assistant', content: 42 } }] }));
    const recorded = await recordChat(12);
    expect(recorded.error).toBeInstanceOf(ModelApiError);
    expect((recorded.error as ModelApiError).message).toMatch(
      /^malformed response from the Chat Completions API at .*: choices\[0\]\.message\.content is 42, not a string or null/,
    );
    expect(recorded.cassette).toBeUndefined();
    expect(api.requests).toHaveLength(3);
    expect(await readFile(file(12))).toEqual(before);
  });
});

describe('recording an answer from elsewhere, or too large to keep', () => {
  it('follows no redirect: the key never leaves the host, nothing is recorded, the old cassette stays', async () => {
    api.script(json(textMessage('the good old answer')));
    expect((await recordOne(20)).error).toBeUndefined();
    const before = await readFile(file(20));
    // The break: a cross-origin redirect was followed and its answer recorded under this host.
    let keySentThere: string | undefined;
    const elsewhere = await startHostileApi();
    elsewhere.script((response, { incoming }) => {
      keySentThere = String(incoming.headers['x-api-key']);
      json(textMessage('an answer from elsewhere'))(response, { n: 1, body: '', incoming });
    });
    try {
      api.script((response) => {
        response.writeHead(307, { location: `${elsewhere.url}/v1/messages?token=secret` });
        response.end();
      });
      const recorded = await recordOne(20);
      expect(recorded.cassette).toBeUndefined();
      expect(String(recorded.error)).toMatch(
        /the API at 127\.0\.0\.1:\d+ answered POST \/v1\/messages with a redirect \(307\) to http:\/\/127\.0\.0\.1:\d+: recording follows no redirect/,
      );
      expect(String(recorded.error)).not.toContain('token=secret');
      expect(elsewhere.requests).toHaveLength(0);
      expect(keySentThere).toBeUndefined();
      // Not retried: the client is told once.
      expect(api.requests).toHaveLength(1);
      expect(await readFile(file(20))).toEqual(before);
    } finally {
      await elsewhere.close();
    }
  });

  it('cuts an answer past 32 MiB and records nothing, instead of a cassette as large', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    api.script((response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      // 40 MiB of one JSON string: more than any model answer.
      response.write('{"type":"message","content":[{"type":"text","text":"');
      for (let index = 0; index < 40; index++) response.write(chunk);
      response.end('"}]}');
    });
    const recorded = await recordOne(21);
    expect(recorded.cassette).toBeUndefined();
    expect(String(recorded.error)).toContain(
      'the answer to POST /v1/messages is larger than 32 MiB, more than a recording keeps: it was cut, and nothing is recorded',
    );
    await expect(readFile(file(21))).rejects.toThrow(/ENOENT/);
  }, 60_000);
});
