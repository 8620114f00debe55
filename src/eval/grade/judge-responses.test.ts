import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { respondResponses } from '../../simulator/responses.js';
import { type RunningSimulator, startSimulator } from '../../simulator/server.js';
import { defineJudge } from '../spec/judge.js';
import { JUDGE_ENV, parseJudgeModels } from '../spec/judge-model.js';
import { SIMULATOR_URL_ENV } from '../trial/upstream.js';
import { verifyJudgeCassette } from '../verify/verify-fixtures.js';
import { judgeCassettePath, readJudgeCassette } from './judge-cassette.js';
import type { JudgeMaterial } from './judge-prompt.js';
import { type JudgeTrialOptions, judgeTrial } from './judge-trial.js';

const RESPONSES = parseJudgeModels(['openai:responses:gpt-5-mini'], 'test');
const judge = defineJudge({
  name: 'polite-refusal',
  rubric: '- says why the resubmission was not done\n- is polite',
  samples: 2,
});
const material: JudgeMaterial = {
  prompt: 'Please resubmit the refund.',
  answer:
    "Resubmitting the refund needs a human's approval, so it was not done; I have handed it over.",
  toolCalls: [],
  messages: [],
};
const label = { suite: 'refund-desk', task: 'T7', variant: 'upgraded', trial: 1 };

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'judge-responses-'));
  mkdirSync(join(root, 'T7/upgraded'), { recursive: true });
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(root, { recursive: true, force: true });
});

function options(overrides: Partial<JudgeTrialOptions>): JudgeTrialOptions {
  return {
    mode: 'replay',
    context: {
      file: judgeCassettePath(root, 'T7', 'upgraded', 1),
      label,
      rerecordCommand: 'npm run record -- --judge-only --task T7 --variant upgraded --trial 1',
    },
    models: RESPONSES,
    samples: undefined,
    source: 'simulator',
    variant: 'upgraded',
    trial: 1,
    seed: 'T7/upgraded/1',
    ...overrides,
  };
}

/** Record, then replay offline: the same verdicts, the cassette's hash. */
async function recordAndReplay(source: 'live' | 'simulator') {
  const recorded = await judgeTrial([judge], material, options({ mode: 'record', source }));
  expect(recorded.unrecorded).toBeUndefined();
  const samples = recorded.judgments[0]!.samples;
  expect(samples.map((sample) => sample.error)).toEqual([undefined, undefined]);
  const { cassette, hash } = readJudgeCassette(options({}).context.file);
  expect(hash).toBe(recorded.hash);
  expect(cassette.meta.source).toBe(source);
  const [tape] = cassette.judgments;
  expect(tape?.model).toBe('openai:responses:gpt-5-mini');
  expect(tape?.samples[0]?.request).toMatchObject({
    path: '/responses',
    body: { tool_choice: { type: 'function', name: 'submit_verdict' }, store: false },
  });
  const replayed = await judgeTrial([judge], material, options({ models: undefined }));
  expect(replayed.problem).toBeUndefined();
  expect(replayed.judgments[0]!.models).toEqual(['openai:responses:gpt-5-mini']);
  const verdicts = (list: typeof samples) => list.map(({ label, score }) => ({ label, score }));
  expect(verdicts(replayed.judgments[0]!.samples)).toEqual(verdicts(samples));
  return { cassette, hash };
}

describe('a judge that speaks the OpenAI Responses API', () => {
  let simulator: RunningSimulator;
  beforeAll(async () => {
    simulator = await startSimulator({ unmatched: 'error' });
  });
  afterAll(async () => {
    await simulator.close();
  });

  it('records against the simulator, replays offline, and record --verify re-derives it', async () => {
    vi.stubEnv(SIMULATOR_URL_ENV, simulator.url);
    const { hash } = await recordAndReplay('simulator');
    const verdict = verifyJudgeCassette(options({}).context.file, {
      shown: 'trial-1.judge.json',
      label,
      referenceHash: hash,
    });
    expect(verdict).toMatchObject({ source: 'simulator', problems: [] });
    expect(verdict.notRederived).toBeUndefined();
  });

  describe('live, against a Responses server on 127.0.0.1', () => {
    let server: Server;
    const seen: Array<{ path: string; authorization: string | undefined }> = [];
    beforeAll(async () => {
      // The simulator's answers without its mark: what a live recording accepts.
      server = createServer((request, response) => {
        let text = '';
        request.on('data', (part: Buffer) => {
          text += part.toString('utf8');
        });
        request.on('end', () => {
          seen.push({ path: request.url ?? '', authorization: request.headers.authorization });
          const answer = respondResponses(JSON.parse(text), { authorization: 'Bearer local' });
          response.writeHead(answer.status, { 'content-type': 'application/json' });
          response.end(JSON.stringify(answer.body));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve));
    });

    it('records the judge live with its key, and replays it with no network', async () => {
      const { port } = server.address() as AddressInfo;
      vi.stubEnv(JUDGE_ENV.baseURL, `http://127.0.0.1:${port}/v1`);
      vi.stubEnv(JUDGE_ENV.apiKey, 'local-judge-key');
      const { cassette } = await recordAndReplay('live');
      expect(cassette.meta.host).toBe(`127.0.0.1:${port}`);
      expect(seen).toEqual([
        { path: '/v1/responses', authorization: 'Bearer local-judge-key' },
        { path: '/v1/responses', authorization: 'Bearer local-judge-key' },
      ]);
    });
  });
});
