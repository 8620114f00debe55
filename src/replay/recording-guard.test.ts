import { readFile, writeFile } from 'node:fs/promises';
import { Socket } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarnessError } from '../core/errors.js';
import { readCassette } from './cassette-file.js';
import { refuseNetwork } from './network-guard.js';
import { createRecordingGuard } from './recording-guard.js';
import { NOW, type ReplayFixture, startReplayFixture } from './testing/replay-fixture.js';
import { runTestAgent, sessionClient, testSpec } from './testing/test-agent.js';

// Captured when this module loads, before any recording listens: a client built at module level.
const moduleFetch = globalThis.fetch;

let fixture: ReplayFixture;
beforeAll(async () => {
  fixture = await startReplayFixture();
});
afterAll(async () => {
  await fixture.close();
});

const meta = (trial: number) =>
  ({
    task: 'T1',
    variant: 'upgraded',
    trial,
    now: NOW,
    model: 'claude-test-1',
    source: 'live',
  }) as const;
const BODY = JSON.stringify({
  model: 'claude-test-1',
  max_tokens: 8,
  messages: [{ role: 'user', content: 'hi' }],
});

/** Record trial `trial` with `run`, over an old cassette whose bytes must survive a refusal. */
async function recordOver(trial: number, run: Parameters<ReplayFixture['server']['record']>[1]) {
  const old = '{"old": "cassette bytes, kept as they are"}\n';
  await writeFile(fixture.file(trial), old).catch(async () => {
    const { mkdir } = await import('node:fs/promises');
    await mkdir(fixture.file(trial).replace(/\/[^/]+$/, ''), { recursive: true });
    await writeFile(fixture.file(trial), old);
  });
  const before = fixture.api.requests.length;
  const recorded = await fixture.server.record(
    { file: fixture.file(trial), meta: meta(trial), upstreamBaseURL: fixture.api.url },
    run,
  );
  return {
    recorded,
    reached: fixture.api.requests.length - before,
    kept: (await readFile(fixture.file(trial), 'utf8')) === old,
  };
}

const refusal = (error: unknown) => {
  expect(error).toBeInstanceOf(HarnessError);
  expect((error as HarnessError).code).toBe('recording_bypassed');
  const message = (error as Error).message;
  expect(message).not.toContain('\n');
  expect(message).toContain('pass the given fetch to your client');
  return message;
};

describe('the recording guard', () => {
  it('refuses a client that captured fetch before recording (module level): nothing written, the old cassette kept', async () => {
    const { recorded, kept } = await recordOver(3, async (session) => {
      // As `new OpenAI({ baseURL })` at import time: the SDK keeps the fetch it found then.
      const client = new Anthropic({
        apiKey: 'k',
        baseURL: fixture.api.url,
        fetch: moduleFetch,
        maxRetries: 0,
      });
      await client.messages.create({
        model: 'claude-test-1',
        max_tokens: 8,
        messages: [{ role: 'user', content: 'hi' }],
      });
      // And one request through the given fetch: still refused.
      return runTestAgent(sessionClient(session), testSpec());
    });
    const message = refusal(recorded.error);
    expect(message).toContain(`POST ${fixture.api.url}/v1/messages around the given fetch`);
    expect(recorded.cassette).toBeUndefined();
    expect(kept).toBe(true);
  });

  it('refuses a client that reads globalThis.fetch when it calls, before the request leaves', async () => {
    const { recorded, reached, kept } = await recordOver(4, async () => {
      try {
        await globalThis.fetch(`${fixture.api.url}/v1/messages`, { method: 'POST', body: BODY });
      } catch {
        // The agent may swallow the failure: the guard still refuses the trial.
      }
      return 'answered without the given fetch';
    });
    expect(refusal(recorded.error)).toContain('around the given fetch');
    expect(reached).toBe(0);
    expect(kept).toBe(true);
  });

  it('refuses a request to another host (the default public API of a client without baseURL)', async () => {
    const { recorded, kept } = await recordOver(5, async () => {
      await globalThis
        .fetch('https://api.example.invalid/v1/responses?key=sk-query', {
          method: 'POST',
          body: '{}',
        })
        .catch(() => {});
      return 'done';
    });
    const message = refusal(recorded.error);
    expect(message).toContain('POST https://api.example.invalid/v1/responses?[redacted] around');
    expect(message).not.toContain('sk-query');
    expect(kept).toBe(true);
  });

  it('refuses a trial that made no model request at all', async () => {
    const { recorded, kept } = await recordOver(6, async () => 'an answer from nowhere');
    expect(refusal(recorded.error)).toContain('made no model request through the given fetch');
    expect(kept).toBe(true);
  });

  it('records what went through the given fetch, naming the client from its user-agent', async () => {
    const recorded = await fixture.server.record(
      { file: fixture.file(7), meta: meta(7), upstreamBaseURL: fixture.api.url },
      (session) => runTestAgent(sessionClient(session), testSpec()),
    );
    expect(recorded.error).toBeUndefined();
    const cassette = await readCassette(fixture.file(7));
    expect(cassette.meta).toMatchObject({
      sdk: '@anthropic-ai/sdk',
      sdkVersion: expect.stringMatching(/^\d/),
    });
    // The mark that told the given fetch apart is neither taped nor sent upstream.
    expect(JSON.stringify(cassette)).not.toContain('x-harness-record-session');
  });
});

describe('the recording guard beside a replay', () => {
  it("keeps a replay's network refusal while a recording ends, and leaves connect as it found it", async () => {
    const original = Socket.prototype.connect;
    let stopReplay: (() => void) | undefined;
    let refused: unknown;
    await createRecordingGuard().run(async () => {
      stopReplay = refuseNetwork();
    });
    // The recording ended while the replay still runs: its sockets are still refused.
    const socket = new Socket();
    socket.on('error', (error) => {
      refused = error;
    });
    socket.connect(9, '127.0.0.1');
    await new Promise((resolve) => socket.once('close', resolve));
    stopReplay?.();
    expect(String(refused)).toMatch(/tried to reach 127\.0\.0\.1:9/);
    expect(Socket.prototype.connect).toBe(original);
  });
});
