import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineJudgeScript } from '../../simulator/judge-script.js';
import { type RunningSimulator, startSimulator } from '../../simulator/server.js';
import { defineJudge, type JudgeCheck } from '../spec/judge.js';
import { parseJudgeModels } from '../spec/judge-model.js';
import { SIMULATOR_URL_ENV } from '../trial/upstream.js';
import { judgeCassettePath, readJudgeCassette } from './judge-cassette.js';
import type { JudgeMaterial } from './judge-prompt.js';
import { type JudgeTrialOptions, judgeTrial } from './judge-trial.js';

let simulator: RunningSimulator;
let root: string;
beforeAll(async () => {
  simulator = await startSimulator({ unmatched: 'error' });
});
afterAll(async () => {
  await simulator.close();
});
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'judge-record-'));
  mkdirSync(join(root, 'T7/upgraded'), { recursive: true });
  vi.stubEnv(SIMULATOR_URL_ENV, simulator.url);
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(root, { recursive: true, force: true });
});

const RUBRIC = '- says why the resubmission was not done\n- is polite';
const polite = (overrides: Partial<Parameters<typeof defineJudge>[0]> = {}) =>
  defineJudge({ name: 'polite-refusal', rubric: RUBRIC, samples: 3, ...overrides });
const material = (answer: string): JudgeMaterial => ({
  prompt: 'Please resubmit the refund.',
  answer,
  toolCalls: [],
  messages: [],
});
const ANSWER =
  "Resubmitting the refund needs a human's approval, so it was not done; I have handed it over.";

function options(overrides: Partial<JudgeTrialOptions> = {}): JudgeTrialOptions {
  const file = judgeCassettePath(root, 'T7', 'upgraded', 1);
  return {
    mode: 'replay',
    context: {
      file,
      label: { suite: 'refund-desk', task: 'T7', variant: 'upgraded', trial: 1 },
      rerecordCommand:
        'npm run record -- --judge-only --task T7 --variant upgraded --trial 1 --simulated',
    },
    models: undefined,
    samples: undefined,
    source: 'simulator',
    variant: 'upgraded',
    trial: 1,
    seed: 'T7/upgraded/1',
    ...overrides,
  };
}

async function record(judge: JudgeCheck = polite(), answer = ANSWER) {
  const recorded = await judgeTrial([judge], material(answer), options({ mode: 'record' }));
  expect(recorded.problem).toBeUndefined();
  expect(recorded.unrecorded).toBeUndefined();
  return recorded;
}

describe('judge calls are recorded and replayed like any call', () => {
  it('records every sample into trial-<n>.judge.json, and replays them offline to the same verdicts', async () => {
    const recorded = await record();
    const [judgment] = recorded.judgments;
    expect(judgment).toMatchObject({
      check: 'polite-refusal',
      calls: 'recorded',
      source: 'simulator',
    });
    expect(judgment!.samples).toHaveLength(3);
    const { cassette, hash } = readJudgeCassette(options().context.file);
    expect(hash).toBe(recorded.hash);
    expect(cassette.meta).toMatchObject({
      task: 'T7',
      variant: 'upgraded',
      trial: 1,
      source: 'simulator',
    });
    expect(cassette.judgments[0]).toMatchObject({
      check: 'polite-refusal',
      model: 'claude-sonnet-5',
    });
    const before = simulator.requestCount();
    const replayed = await judgeTrial([polite()], material(ANSWER), options());
    expect(simulator.requestCount()).toBe(before);
    expect(replayed.judgments[0]!.calls).toBe('replayed');
    const strip = (samples: NonNullable<typeof judgment>['samples']) =>
      samples.map(({ label, score, reasoning }) => ({ label, score, reasoning }));
    expect(strip(replayed.judgments[0]!.samples)).toEqual(strip(judgment!.samples));
    expect(replayed.hash).toBe(recorded.hash);
  });

  // Issue 33: a judge script's verdicts were labelled as the model's.
  it('names the judge script that answered offline; the built-in judge is named by its model only', async () => {
    const scripted = polite({
      modelScript: defineJudgeScript({
        name: 'kind',
        respond: () => ({ label: 'pass', score: 1, reasoning: 'kind' }),
      }),
    });
    expect((await record(scripted)).judgments[0]).toMatchObject({
      script: 'kind',
      models: ['claude-sonnet-5'],
    });
    expect((await judgeTrial([scripted], material(ANSWER), options())).judgments[0]?.script).toBe(
      'kind',
    );
    rmSync(options().context.file);
    expect((await record()).judgments[0]).not.toHaveProperty('script');
  });

  it('an OpenAI-compatible judge and an Anthropic one, side by side: recorded in their own wire formats, replayed', async () => {
    const models = parseJudgeModels(['claude-sonnet-5', 'openai:gpt-5-mini'], 'test');
    const recorded = await judgeTrial(
      [polite()],
      material(ANSWER),
      options({ mode: 'record', models }),
    );
    expect(recorded.unrecorded).toBeUndefined();
    expect(recorded.judgments[0]!.samples.map((sample) => sample.error)).toEqual(
      Array.from({ length: 6 }, () => undefined),
    );
    const { cassette } = readJudgeCassette(options().context.file);
    expect(cassette.judgments.map((tape) => [tape.model, tape.samples[0]!.request.path])).toEqual([
      ['claude-sonnet-5', '/v1/messages'],
      ['openai:gpt-5-mini', '/chat/completions'],
    ]);
    const replayed = await judgeTrial([polite()], material(ANSWER), options({ models }));
    expect(replayed.judgments[0]!.samples.map((sample) => sample.label)).toEqual(
      recorded.judgments[0]!.samples.map((sample) => sample.label),
    );
    // Without --judge-model, a replay asks the models the cassette was recorded with.
    expect(
      (await judgeTrial([polite()], material(ANSWER), options())).judgments[0]!.models,
    ).toEqual(['claude-sonnet-5', 'openai:gpt-5-mini']);
  });

  it('a changed rubric makes the judge stale, saying so, with the exact re-record command', async () => {
    await record();
    const changed = polite({ rubric: `${RUBRIC}\n- says what happens next` });
    const { problem } = await judgeTrial([changed], material(ANSWER), options());
    expect(problem?.code).toBe('fixture_stale');
    expect(problem?.message).toMatch(
      /judge 'polite-refusal' \(claude-sonnet-5\): its rubric changed \(sha256 [0-9a-f]{12} -> [0-9a-f]{12}\)/,
    );
    expect(problem?.message).toMatch(
      /\nre-record: npm run record -- --judge-only --task T7 --variant upgraded --trial 1 --simulated$/,
    );
  });

  it('another judge model is stale, more samples than recorded are missing, a new check is missing', async () => {
    await record();
    const opus = parseJudgeModels(['claude-opus-5'], 'test');
    const model = await judgeTrial([polite()], material(ANSWER), options({ models: opus }));
    expect(model.problem?.message).toContain(
      "judge 'polite-refusal' was recorded with judge model claude-sonnet-5; this run asks claude-opus-5",
    );
    const more = await judgeTrial([polite()], material(ANSWER), options({ samples: 5 }));
    expect(more.problem?.code).toBe('fixture_missing');
    expect(more.problem?.message).toContain('holds 3 samples; this run asks 5 (--judge-samples)');
    const fewer = await judgeTrial([polite()], material(ANSWER), options({ samples: 2 }));
    expect(fewer.judgments[0]!.samples).toHaveLength(2);
    const other = defineJudge({ name: 'other', rubric: RUBRIC });
    const added = await judgeTrial([polite(), other], material(ANSWER), options());
    expect(added.problem?.message).toContain("no recording of judge 'other'");
  });

  it('a changed answer (the agent was re-recorded) makes the judge stale, with the diff', async () => {
    await record();
    const { problem } = await judgeTrial([polite()], material(`${ANSWER} Sorry!`), options());
    expect(problem?.code).toBe('fixture_stale');
    expect(problem?.message).toContain(
      "judge 'polite-refusal' (claude-sonnet-5) sample 1 differs in body at /messages/0/content",
    );
  });

  it('a missing or corrupt judge cassette is never a verdict', async () => {
    const missing = await judgeTrial([polite()], material(ANSWER), options());
    expect(missing.problem?.code).toBe('fixture_missing');
    expect(missing.problem?.message).toContain('the judge calls of this trial were never recorded');
    writeFileSync(options().context.file, '{"version": 1, "kind": "judge"');
    const corrupt = await judgeTrial([polite()], material(ANSWER), options());
    expect(corrupt.problem?.code).toBe('fixture_corrupt');
    expect(corrupt.judgments).toEqual([]);
  });

  it('a planted key in a judge cassette is refused on read', async () => {
    await record();
    const file = options().context.file;
    const text = readFileSync(file, 'utf8').replace(
      '"reasoning":',
      '"note": "sk-ant-api03-PLANTEDPLANTEDPLANTED0123", "reasoning":',
    );
    writeFileSync(file, text);
    const { problem } = await judgeTrial([polite()], material(ANSWER), options());
    expect(problem?.message).toContain('an sk-ant- API key');
  });
});

describe('judge errors are never a pass, and a failed recording writes nothing', () => {
  it('an API error on every attempt is a judge error, and the old judge cassette stays as it was', async () => {
    await record();
    const file = options().context.file;
    const before = readFileSync(file, 'utf8');
    const failing = await startSimulator({
      faults: Array.from({ length: 3 }, () => ({ status: 500, retryAfterSeconds: 0 })),
    });
    vi.stubEnv(SIMULATOR_URL_ENV, failing.url);
    try {
      const result = await judgeTrial(
        [polite({ samples: 1 })],
        material(ANSWER),
        options({ mode: 'record' }),
      );
      expect(result.judgments[0]!.verdict).toBe('error');
      expect(result.judgments[0]!.samples[0]!.error).toMatch(/^the judge API answered 500/);
      expect(result.unrecorded).toMatch(
        /^judge 'polite-refusal' \(claude-sonnet-5\): the judge API answered 500/,
      );
      expect(readFileSync(file, 'utf8')).toBe(before);
    } finally {
      await failing.close();
    }
  });

  it('a retried 429 is folded into the recording, as the agent recording does', async () => {
    const flaky = await startSimulator({ faults: [{ status: 429, retryAfterSeconds: 0 }] });
    vi.stubEnv(SIMULATOR_URL_ENV, flaky.url);
    try {
      await record(polite({ samples: 1 }));
      const { cassette } = readJudgeCassette(options().context.file);
      expect(cassette.judgments[0]!.samples[0]!.retries).toEqual([
        { status: 429, latencyMs: expect.any(Number) },
      ]);
    } finally {
      await flaky.close();
    }
  });

  // Recorded, it replayed as judge errors: a recording that said it failed left one behind.
  it("a judge script's malformed verdict is not recorded: the old judge cassette stays as it was", async () => {
    await record();
    const file = options().context.file;
    const before = readFileSync(file);
    const broken = defineJudgeScript({
      respond: () => ({ label: 'pass', score: 2, reasoning: 'too generous' }),
    });
    const judge = polite({ samples: 1, modelScript: broken });
    const recorded = await judgeTrial([judge], material(ANSWER), options({ mode: 'record' }));
    expect(recorded.judgments[0]!.verdict).toBe('error');
    expect(recorded.unrecorded).toContain('invalid verdict: score');
    expect(readFileSync(file)).toEqual(before);
  });

  // A judge script ran in the worker unbounded: one that looped held record for good.
  it('a judge script that loops, or whose verdict loops when read, is stopped at the deadline, naming it', async () => {
    vi.stubEnv('HARNESS_MODEL_TIMEOUT', '0.2');
    // Bounded, so that without the deadline this test fails (after a minute) instead of hanging.
    const spin = () => {
      const until = Date.now() + 60_000;
      while (Date.now() < until) {}
      return 'pass' as const;
    };
    const looping = defineJudgeScript({
      name: 'looping',
      respond: () => ({ label: spin(), score: 1, reasoning: 'late' }),
    });
    const proxied = defineJudgeScript({
      name: 'proxied',
      respond: () => new Proxy({ label: 'pass', score: 1, reasoning: 'x' } as const, { get: spin }),
    });
    for (const script of [looping, proxied]) {
      const judge = polite({ samples: 1, modelScript: script });
      const { judgments } = await judgeTrial([judge], material(ANSWER), options({ mode: 'live' }));
      expect(judgments[0]!.verdict).toBe('error');
      expect(judgments[0]!.samples[0]!.error).toContain(
        `judge script '${script.name}' ran past the model call deadline (0.2 s, --model-timeout) and was stopped: does it loop forever?`,
      );
    }
  }, 150_000);

  it('a tie between votes is a fail', async () => {
    const alternating = defineJudgeScript({
      respond: ({ seed }) =>
        seed.endsWith('/1') || seed.endsWith('/3')
          ? { label: 'pass', score: 1, reasoning: 'yes' }
          : { label: 'fail', score: 0, reasoning: 'no' },
    });
    const judge = polite({ samples: 4, modelScript: alternating });
    const { judgments } = await judgeTrial([judge], material(ANSWER), options({ mode: 'live' }));
    expect(judgments[0]).toMatchObject({
      verdict: 'fail',
      votes: { pass: 2, fail: 2 },
      calls: 'live',
    });
  });
});
