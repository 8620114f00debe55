import { access, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HarnessError, SecretLeakError } from '../core/errors.js';
import { createReplayServer, type RecordSession } from './replay-server.js';
import { NOW, RERECORD, type ReplayFixture, startReplayFixture } from './testing/replay-fixture.js';
import { sessionClient, testSpec } from './testing/test-agent.js';

let fixture: ReplayFixture;
beforeAll(async () => {
  fixture = await startReplayFixture();
});
afterAll(async () => {
  await fixture.close();
});
afterEach(() => {
  fixture.api.setHeaders({});
  fixture.api.setSuffix('');
  fixture.api.setDeltaSize(undefined);
});

const PLANTED = 'sk-ant-api03-PLANTED0123456789';
const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );
const meta = (trial: number) =>
  ({
    task: 'T1',
    variant: 'upgraded',
    trial,
    now: NOW,
    model: 'claude-test-1',
    source: 'live',
  }) as const;

/** One question; an API error is returned as text rather than thrown. */
async function askOnce(session: RecordSession, maxRetries: number): Promise<string> {
  try {
    const message = await sessionClient(session, maxRetries).messages.create({
      model: 'claude-test-1',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'anyone there?' }],
    });
    return message.content[0]?.type === 'text' ? message.content[0].text : '';
  } catch (error) {
    if (error instanceof Anthropic.APIConnectionError) return `failed: ${error.message}`;
    return error instanceof Anthropic.APIError
      ? `gave up: ${error.status}`
      : `failed: ${String(error)}`;
  }
}

describe('createReplayServer().record: retries and errors', () => {
  it('folds an overloaded answer the SDK retried past into the next exchange', async () => {
    const before = fixture.api.requests.length;
    // retry-after: 0 alone makes the SDK fall back to its ~0.5 s default backoff; retry-after-ms: 1 does not.
    fixture.api.failNext(529, { 'retry-after': '0', 'retry-after-ms': '1' });
    const recorded = await fixture.record(1, testSpec(), { maxRetries: 2 });
    expect(recorded.error).toBeUndefined();
    expect(fixture.api.requests.length - before).toBe(3);
    const [first, second] = recorded.cassette?.exchanges ?? [];
    expect(recorded.cassette?.exchanges).toHaveLength(2);
    expect(first?.response.status).toBe(200);
    expect(first?.retries).toEqual([{ status: 529, latencyMs: expect.any(Number) }]);
    expect(second?.retries).toBeUndefined();

    const replayed = await fixture.replay(1, testSpec());
    expect(replayed).toMatchObject({ value: recorded.value, served: 2 });
    expect(replayed.problem).toBeUndefined();
  });

  it('records an error answer that was not retried as data, and replays it', async () => {
    fixture.api.failNext(529, { 'x-should-retry': 'false' });
    const recorded = await fixture.server.record(
      { file: fixture.file(2), meta: meta(2), upstreamBaseURL: fixture.api.url },
      (session) => askOnce(session, 2),
    );
    expect(recorded.value).toBe('gave up: 529');
    expect(recorded.cassette?.exchanges[0]?.response).toEqual({
      status: 529,
      headers: { 'content-type': 'application/json' },
      body: { error: { message: 'Overloaded', type: 'overloaded_error' }, type: 'error' },
    });
    const replayed = await fixture.server.replay(
      {
        file: fixture.file(2),
        label: { task: 'T1', variant: 'upgraded', trial: 2 },
        rerecordCommand: RERECORD,
      },
      (session) => askOnce(session, 0),
    );
    expect(replayed).toEqual({
      value: 'gave up: 529',
      latenciesMs: [expect.any(Number)],
      served: 1,
      rerecordCommand: RERECORD,
      meta: recorded.cassette?.meta,
    });
  });
});

describe('createReplayServer().record: nothing bad reaches the disk', () => {
  beforeAll(async () => {
    expect((await fixture.record(10, testSpec())).error).toBeUndefined();
  });

  const refused: Array<[string, () => void]> = [
    ['a key in a response body', () => fixture.api.setSuffix(` ${PLANTED}`)],
    [
      'a key in a kept response header',
      () => fixture.api.setHeaders({ 'content-type': `application/json; note=${PLANTED}` }),
    ],
  ];

  it.each(refused)('refuses %s and keeps the old cassette byte-identical', async (_, plant) => {
    const before = await readFile(fixture.file(10));
    plant();
    const recorded = await fixture.record(10, testSpec());
    expect(recorded.value).toContain('You said:');
    expect(recorded.error).toBeInstanceOf(SecretLeakError);
    expect(String(recorded.error)).not.toContain(PLANTED);
    expect(recorded.cassette).toBeUndefined();
    expect(await readFile(fixture.file(10))).toEqual(before);
    expect(
      (await readdir(path.dirname(fixture.file(10)))).filter((name) => name.endsWith('.tmp')),
    ).toEqual([]);
  });

  it('refuses a key split across streamed text_delta events and keeps the old cassette byte-identical', async () => {
    const streaming = testSpec({ stream: true });
    expect((await fixture.record(15, streaming)).error).toBeUndefined();
    const before = await readFile(fixture.file(15));
    // Pieces of 5 characters: no single event holds the 30-character key.
    fixture.api.setDeltaSize(5);
    fixture.api.setSuffix(` ${PLANTED}`);
    const recorded = await fixture.record(15, streaming);
    expect(recorded.value).toContain(PLANTED);
    expect(recorded.error).toBeInstanceOf(SecretLeakError);
    expect(String(recorded.error)).toContain(
      'the text streamed in exchanges[1] content block 0 text contains an sk-ant- API key; nothing was written',
    );
    expect(String(recorded.error)).not.toContain(PLANTED);
    expect(await readFile(fixture.file(15))).toEqual(before);
  });

  it('writes nothing for a first recording that leaks', async () => {
    fixture.api.setSuffix(` ${PLANTED}`);
    const recorded = await fixture.record(11, testSpec());
    expect(recorded.error).toBeInstanceOf(SecretLeakError);
    expect(await exists(fixture.file(11))).toBe(false);
  });

  it('refuses a value passed in secrets', async () => {
    const recorded = await fixture.record(
      12,
      testSpec({ question: 'my token is tok_9f8e7d6c5b' }),
      {
        secrets: ['tok_9f8e7d6c5b'],
      },
    );
    expect(recorded.error).toBeInstanceOf(SecretLeakError);
    expect(await exists(fixture.file(12))).toBe(false);
  });

  it('drops credentials in headers it does not keep: request x-api-key, response request-id', async () => {
    fixture.api.setHeaders({ 'request-id': PLANTED, 'anthropic-organization-id': 'org-1' });
    const recorded = await fixture.server.record(
      { file: fixture.file(13), meta: meta(13), upstreamBaseURL: fixture.api.url },
      async (session) => {
        const client = new Anthropic({
          apiKey: PLANTED,
          baseURL: session.baseURL,
          fetch: session.fetch,
          maxRetries: 0,
        });
        return (
          await client.messages.create({
            model: 'claude-test-1',
            max_tokens: 8,
            messages: [{ role: 'user', content: 'hi' }],
          })
        ).id;
      },
    );
    expect(recorded.error).toBeUndefined();
    const text = await readFile(fixture.file(13), 'utf8');
    expect(text).not.toContain(PLANTED);
    expect(text).not.toContain('org-1');
    expect(fixture.api.requests.length).toBeGreaterThan(0);
  });

  it('writes nothing when the run throws, keeping the old cassette byte-identical', async () => {
    const before = await readFile(fixture.file(10));
    const failure = new Error('the agent crashed');
    const recorded = await fixture.server.record(
      { file: fixture.file(10), meta: meta(10), upstreamBaseURL: fixture.api.url },
      async (session) => {
        await askOnce(session, 0);
        throw failure;
      },
    );
    expect(recorded).toEqual({ error: failure });
    expect(await readFile(fixture.file(10))).toEqual(before);
  });

  it('writes nothing when an upstream request failed, even if the run swallowed it', async () => {
    const recorded = await fixture.server.record(
      { file: fixture.file(14), meta: meta(14), upstreamBaseURL: 'http://127.0.0.1:1' },
      (session) => askOnce(session, 0),
    );
    expect(recorded.value).toMatch(/^failed: .*Connection error/);
    expect(recorded.error).toBeInstanceOf(Error);
    expect(await exists(fixture.file(14))).toBe(false);
  });
});

describe('createReplayServer', () => {
  it('refuses to record or replay before listen()', async () => {
    const idle = createReplayServer();
    const attempt = idle.record(
      { file: fixture.file(20), meta: meta(20), upstreamBaseURL: fixture.api.url },
      async () => 1,
    );
    await expect(attempt).rejects.toThrow(HarnessError);
    await expect(attempt).rejects.toThrow('call listen() on the replay server first');
  });
});
