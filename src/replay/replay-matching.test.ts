import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCassette, writeCassette } from './cassette-file.js';
import type { Matching } from './replay-cursor.js';
import type { RecordSession } from './replay-server.js';
import { deferred } from './testing/deferred.js';
import { NOW, RERECORD, type ReplayFixture, startReplayFixture } from './testing/replay-fixture.js';
import { sessionClient, testSpec } from './testing/test-agent.js';

let fixture: ReplayFixture;
beforeAll(async () => {
  fixture = await startReplayFixture();
  expect((await fixture.record(1, testSpec())).error).toBeUndefined();
});
afterAll(async () => {
  await fixture.close();
});

/** Two independent questions, in the given order. */
async function askAll(session: RecordSession, questions: readonly string[]): Promise<string[]> {
  const client = sessionClient(session);
  const answers: string[] = [];
  for (const question of questions) {
    const message = await client.messages.create({
      model: 'claude-test-1',
      max_tokens: 64,
      messages: [{ role: 'user', content: question }],
    });
    answers.push(message.content[0]?.type === 'text' ? message.content[0].text : '');
  }
  return answers;
}

describe('createReplayServer: exhausted and leftover cassettes', () => {
  it('reports a request past the end of the cassette as exhausted', async () => {
    const cassette = await readCassette(fixture.file(1));
    await writeCassette(fixture.file(2), {
      ...cassette,
      meta: { ...cassette.meta, trial: 2 },
      exchanges: cassette.exchanges.slice(0, 1),
    });
    const replayed = await fixture.replay(2, testSpec());
    expect(replayed.value).toBeUndefined();
    expect(replayed.served).toBe(1);
    expect(replayed.problem?.code).toBe('fixture_exhausted');
    expect(replayed.problem?.message).toContain(
      'is exhausted (task T1, variant upgraded, trial 2): request 2 (exchanges[1]) has no recording: the cassette holds 1 exchanges',
    );
    expect(replayed.problem?.message).toContain('tool_result');
    expect(replayed.problem?.message.endsWith(`re-record: ${RERECORD}`)).toBe(true);
  });

  it('reports exchanges the run never asked for as leftover, even when the run succeeded', async () => {
    const replayed = await fixture.replay(1, testSpec({ maxSteps: 1 }));
    expect(replayed.value).toBe('(stopped)');
    expect(replayed.error).toBeUndefined();
    expect(replayed.served).toBe(1);
    expect(replayed.problem?.code).toBe('fixture_leftover');
    expect(replayed.problem?.message).toContain('exchanges[1] never requested (served 1 of 2');
  });
});

describe('createReplayServer: matching', () => {
  beforeAll(async () => {
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
      (session) => askAll(session, ['first question', 'second question']),
    );
    expect(recorded.value).toEqual(['You said: first question', 'You said: second question']);
  });

  const swapped = (matching: Matching) =>
    fixture.server.replay(
      {
        file: fixture.file(3),
        label: { task: 'T1', variant: 'upgraded', trial: 3 },
        matching,
        rerecordCommand: RERECORD,
      },
      (session) => askAll(session, ['second question', 'first question']),
    );

  it('lenient matching serves swapped requests their own recorded answers', async () => {
    const replayed = await swapped('lenient');
    expect(replayed.problem).toBeUndefined();
    expect(replayed.value).toEqual(['You said: second question', 'You said: first question']);
    expect(replayed.served).toBe(2);
  });

  it('strict matching rejects the same swap at the first request', async () => {
    const replayed = await swapped('strict');
    expect(replayed.problem?.code).toBe('fixture_stale');
    expect(replayed.problem?.message).toContain(
      'exchanges[0] differs in body at /messages/0/content:',
    );
    expect(replayed.problem?.message).toContain(
      '- recorded: "first question"\n+ live:     "second question"',
    );
    expect(replayed.served).toBe(0);
  });

  it('lenient matching still reports a request no exchange matches, against the closest one', async () => {
    const replayed = await fixture.server.replay(
      {
        file: fixture.file(3),
        label: { task: 'T1', variant: 'upgraded', trial: 3 },
        matching: 'lenient',
        rerecordCommand: RERECORD,
      },
      (session) => askAll(session, ['second question', 'third question']),
    );
    expect(replayed.problem?.code).toBe('fixture_stale');
    expect(replayed.problem?.message).toContain(
      'request 2 matches no unplayed exchange; the closest, exchanges[0] differs',
    );
  });
});

describe('createReplayServer: concurrent trials', () => {
  it('keeps two trials in flight at once on their own cassettes', async () => {
    const both = () => {
      let arrived = 0;
      const gate = deferred();
      // Each run waits after its first call until the other has made one: both sessions are open at once.
      return async (step: number) => {
        if (step !== 0) return;
        if (++arrived === 2) gate.resolve();
        await gate.promise;
      };
    };
    const spec = (trial: number, afterCall: (step: number) => Promise<void>) =>
      testSpec({
        question: `question of trial ${trial}`,
        toolResult: `result of trial ${trial}`,
        afterCall,
      });

    const lineUp = both();
    const recorded = await Promise.all([
      fixture.record(5, spec(5, lineUp)),
      fixture.record(6, spec(6, lineUp)),
    ]);
    expect(recorded.map((result) => result.value)).toEqual([
      'You said: result of trial 5',
      'You said: result of trial 6',
    ]);
    expect(await readFile(fixture.file(5), 'utf8')).not.toContain('trial 6');
    expect(await readFile(fixture.file(6), 'utf8')).not.toContain('trial 5');

    const lineUpAgain = both();
    const replayed = await Promise.all([
      fixture.replay(5, spec(5, lineUpAgain)),
      fixture.replay(6, spec(6, lineUpAgain)),
    ]);
    expect(replayed.map((result) => [result.value, result.served, result.problem])).toEqual([
      ['You said: result of trial 5', 2, undefined],
      ['You said: result of trial 6', 2, undefined],
    ]);
  });
});

describe('createReplayServer: unusable cassettes', () => {
  it('reports a missing cassette without running the trial', async () => {
    let ran = false;
    const replayed = await fixture.server.replay(
      {
        file: fixture.file(40),
        label: { task: 'T1', variant: 'upgraded', trial: 40 },
        rerecordCommand: RERECORD,
      },
      async () => {
        ran = true;
      },
    );
    expect(ran).toBe(false);
    expect(replayed).toMatchObject({ served: 0, latenciesMs: [] });
    expect(replayed.problem?.code).toBe('fixture_missing');
    expect(replayed.problem?.message).toBe(
      `${fixture.file(40)} is missing (task T1, variant upgraded, trial 40): no cassette was recorded for this trial\nre-record: ${RERECORD}`,
    );
  });

  it('reports a corrupt cassette naming the file and the field', async () => {
    const data = JSON.parse(await readFile(fixture.file(1), 'utf8'));
    data.meta.trial = 41;
    data.exchanges[0].response.status = 'ok';
    await writeFile(fixture.file(41), JSON.stringify(data));
    const replayed = await fixture.replay(41, testSpec());
    expect(replayed.problem?.code).toBe('fixture_corrupt');
    expect(replayed.problem?.message).toContain(
      `${fixture.file(41)} is corrupt (task T1, variant upgraded, trial 41): exchanges.0.response.status: expected number, received string`,
    );
  });

  it("refuses another trial's cassette: trials never share a recording", async () => {
    await writeFile(fixture.file(42), await readFile(fixture.file(1)));
    const replayed = await fixture.replay(42, testSpec());
    expect(replayed.problem?.code).toBe('fixture_corrupt');
    expect(replayed.problem?.message).toContain('its meta says task T1, variant upgraded, trial 1');
  });
});
