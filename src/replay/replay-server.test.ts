import { VERSION } from '@anthropic-ai/sdk/version';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixtureError } from '../core/errors.js';
import { isSseResponse, RECORDED_REQUEST_HEADERS } from './cassette.js';
import { readCassette } from './cassette-file.js';
import { REPLAY_BASE_URL } from './replay-server.js';
import { deferred } from './testing/deferred.js';
import { NOW, RERECORD, type ReplayFixture, startReplayFixture } from './testing/replay-fixture.js';
import { sessionClient, TEST_SYSTEM, TEST_TOOLS, testSpec } from './testing/test-agent.js';

let fixture: ReplayFixture;
beforeAll(async () => {
  fixture = await startReplayFixture();
});
afterAll(async () => {
  await fixture.close();
});

describe('createReplayServer: record, then replay', () => {
  it('records a tool loop through real HTTP and replays it without the network', async () => {
    const spec = testSpec();
    const recorded = await fixture.record(1, spec);
    expect(recorded.error).toBeUndefined();
    expect(recorded.value).toBe('You said: {"order_id":"A-1","status":"refund pending"}');
    expect(recorded.file).toBe(fixture.file(1));

    const cassette = await readCassette(fixture.file(1));
    expect(cassette).toEqual(recorded.cassette);
    expect(cassette.meta).toMatchObject({
      trial: 1,
      now: NOW,
      sdkVersion: VERSION,
      host: new URL(fixture.api.url).host,
    });
    expect(cassette.exchanges.map((exchange) => exchange.response.status)).toEqual([200, 200]);
    for (const { request } of cassette.exchanges) {
      expect(request).toMatchObject({ method: 'POST', path: '/v1/messages' });
      expect(
        Object.keys(request.headers).every((name) =>
          (RECORDED_REQUEST_HEADERS as readonly string[]).includes(name),
        ),
      ).toBe(true);
      expect(request.headers['anthropic-version']).toMatch(/^\d{4}-\d\d-\d\d$/);
      expect(Object.keys(request.body as object)).toEqual([
        'max_tokens',
        'messages',
        'model',
        'system',
        'tools',
      ]);
    }

    const calls = fixture.api.requests.length;
    const replayed = await fixture.replay(1, spec);
    expect(replayed).toEqual({
      value: recorded.value,
      latenciesMs: cassette.exchanges.map((exchange) => exchange.latencyMs),
      served: 2,
      rerecordCommand: RERECORD,
      meta: cassette.meta,
    });
    expect(fixture.api.requests.length).toBe(calls);
  });

  it('records SSE events and replays them to messages.stream().finalMessage()', async () => {
    const spec = testSpec({ stream: true });
    const recorded = await fixture.record(2, spec);
    expect(recorded.value).toBe('You said: {"order_id":"A-1","status":"refund pending"}');
    const response = recorded.cassette?.exchanges[1]?.response;
    if (!response || !isSseResponse(response)) throw new Error('expected an SSE exchange');
    expect(response.headers['content-type']).toBe('text/event-stream');
    expect(response.events.map((event) => event.event)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(await fixture.replay(2, spec)).toMatchObject({ value: recorded.value, served: 2 });
  });

  it('hands a stream to the client while upstream is still sending it', async () => {
    const firstText = deferred();
    fixture.api.holdStreamsUntil(firstText.promise);
    const recorded = await fixture.server.record(
      {
        file: fixture.file(3),
        meta: {
          task: 'T1',
          variant: 'upgraded',
          trial: 3,
          now: NOW,
          model: 'claude-test-1',
          source: 'live',
        },
        upstreamBaseURL: fixture.api.url,
      },
      async (session) => {
        const stream = sessionClient(session).messages.stream({
          model: 'claude-test-1',
          max_tokens: 64,
          messages: [{ role: 'user', content: 'hello there' }],
        });
        // Upstream holds its last events until the client has seen text: a buffering recorder deadlocks here.
        stream.on('text', () => firstText.resolve());
        return (await stream.finalMessage()).content;
      },
    );
    fixture.api.holdStreamsUntil(Promise.resolve());
    expect(recorded.error).toBeUndefined();
    expect(recorded.value).toEqual([{ type: 'text', text: 'You said: hello there' }]);
  });

  it('calls onExchange with each exchange before answering and feeds meta.now back', async () => {
    await fixture.record(4, testSpec());
    const cassette = await readCassette(fixture.file(4));
    const seen: Array<[number, number]> = [];
    const seenAtAnswer: number[] = [];
    const spec = testSpec({ afterCall: async () => void seenAtAnswer.push(seen.length) });
    const replayed = await fixture.replay(4, spec, {
      onExchange: (exchange, index) => seen.push([index, exchange.latencyMs]),
    });
    expect(replayed.problem).toBeUndefined();
    expect(seen).toEqual(cassette.exchanges.map((exchange, index) => [index, exchange.latencyMs]));
    expect(seenAtAnswer).toEqual([1, 2]);

    const session = await fixture.server.replay(
      {
        file: fixture.file(4),
        label: { task: 'T1', variant: 'upgraded', trial: 4 },
        rerecordCommand: RERECORD,
      },
      async ({ now, baseURL, cassette }) => ({
        now: now.toISOString(),
        baseURL,
        trial: cassette.meta.trial,
      }),
    );
    expect(session.value).toEqual({ now: NOW, baseURL: REPLAY_BASE_URL, trial: 4 });
  });

  it('builds the re-record command from the meta it reads, or from nothing when the cassette is missing', async () => {
    const asked: Array<string | undefined> = [];
    const command = (meta: { source: string } | undefined) => {
      asked.push(meta?.source);
      return `record ${meta ? meta.source : 'unknown'}`;
    };
    await fixture.record(4, testSpec());
    const found = await fixture.server.replay(
      {
        file: fixture.file(4),
        label: { task: 'T1', variant: 'upgraded', trial: 4 },
        rerecordCommand: command,
      },
      async () => 'ran',
    );
    expect(found.rerecordCommand).toBe('record simulator');
    const missing = await fixture.server.replay(
      {
        file: fixture.file(99),
        label: { task: 'T1', variant: 'upgraded', trial: 99 },
        rerecordCommand: command,
      },
      async () => 'never',
    );
    expect(missing.problem?.code).toBe('fixture_missing');
    expect(missing.problem?.message.endsWith('\nre-record: record unknown')).toBe(true);
    expect(missing.rerecordCommand).toBe('record unknown');
    expect(asked).toContain('simulator');
    expect(asked).toContain(undefined);
  });
});

describe('createReplayServer: stale cassettes', () => {
  beforeAll(async () => {
    expect((await fixture.record(10, testSpec())).error).toBeUndefined();
  });

  const pattern = JSON.parse(
    JSON.stringify(TEST_TOOLS).replace('^A-', '^[AB]-'),
  ) as typeof TEST_TOOLS;

  it.each([
    [
      'the system prompt',
      testSpec({ system: TEST_SYSTEM.replace('yuan', 'CNY') }),
      0,
      '/system/0/text',
      '- Write amounts as "428.00 yuan".\n+ Write amounts as "428.00 CNY".',
    ],
    [
      'a tool schema',
      testSpec({ tools: pattern }),
      0,
      '/tools/1/input_schema/properties/order_id/pattern',
      '- recorded: "^A-\\\\d+$"\n+ live:     "^[AB]-\\\\d+$"',
    ],
    [
      'a tool result',
      testSpec({ toolResult: '{"order_id":"A-1","status":"refunded"}' }),
      1,
      '/messages/2/content/0/content',
      '- recorded: "{\\"order_id\\":\\"A-1\\",\\"status\\":\\"refund pending\\"}"',
    ],
    [
      'the model',
      testSpec({ model: 'claude-test-2' }),
      0,
      '/model',
      '- recorded: "claude-test-1"\n+ live:     "claude-test-2"',
    ],
  ])(
    'reports a change of %s as stale, with the pointer and both values',
    async (_, spec, index, pointer, values) => {
      const replayed = await fixture.replay(10, spec);
      expect(replayed.value).toBeUndefined();
      expect(replayed.error).toBeDefined();
      expect(replayed.served).toBe(index);
      const problem = replayed.problem;
      expect(problem).toBeInstanceOf(FixtureError);
      expect(problem?.code).toBe('fixture_stale');
      expect(problem?.message).toContain(
        `${fixture.file(10)} is stale (task T1, variant upgraded, trial 10): `,
      );
      expect(problem?.message).toContain(`exchanges[${index}] differs in body at ${pointer}:\n`);
      expect(problem?.message).toContain(values);
      expect(problem?.message.endsWith(`\nre-record: ${RERECORD}`)).toBe(true);
    },
  );

  it('never lets the agent see a recorded answer once a request diverged', async () => {
    const replayed = await fixture.replay(10, testSpec({ model: 'claude-test-2' }));
    expect(String(replayed.error)).toContain('replay_fixture_error');
    expect(replayed.latenciesMs).toEqual([]);
  });
});
