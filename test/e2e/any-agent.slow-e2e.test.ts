import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineModelScript } from '../../src/simulator/model-script.js';
import { type InstalledProject, installedProject } from './testing/installed-project.js';
import { type LocalApi, startLocalApi } from './testing/local-api.js';
import { type CommandResult, runCommand } from './testing/run-command.js';
import {
  DATASET_AGENT,
  DATASET_CSV,
  DATASET_YAML,
  datasetTask,
  SDK_AGENTS,
  SDK_VERSIONS,
  sdkTask,
} from './testing/sdk-agents.js';

/**
 * Issue 27 through the packed package in a fresh project: agents on the openai SDK and the
 * Vercel AI SDK (the Responses API, JSON and SSE), recorded offline and against a local
 * server, replayed with the network refused; the recording guard against clients built at
 * module level (openai, @anthropic-ai/sdk, the Vercel AI SDK); provider-aware models and
 * labels; datasets (YAML and CSV, per-case rates, --case, --cases, shards). There is no
 * OpenAI or Anthropic access here: "live" is a server on 127.0.0.1 that this test starts,
 * answering with the simulator's model script (local-api.ts).
 */
let work: string | undefined;
let installed: InstalledProject;
let project: string;
let local: LocalApi;
const figures: string[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'harness-evals-any-agent-'));
  installed = await installedProject(work, 'any-agent-project');
  project = installed.dir;
  // The SDKs a team uses, as dev dependencies of its project (from the npm registry, pinned).
  const sdks = Object.entries(SDK_VERSIONS).map(([name, version]) => `${name}@${version}`);
  const install = await runCommand(
    'npm',
    ['install', '--save-dev', '--save-exact', ...sdks],
    project,
    {
      online: true,
    },
  );
  expectOk(install, 'npm install the SDKs');
  const init = await runCommand('npx', ['harness-evals', 'init', '--no-record'], project);
  expectOk(init, 'harness-evals init');
  figures.push(
    `tarball ${(installed.tarballBytes / 1024).toFixed(0)} KiB (npm pack ${(installed.pack.ms / 1000).toFixed(1)} s), npm install --offline ${(installed.install.ms / 1000).toFixed(1)} s, SDKs ${(install.ms / 1000).toFixed(1)} s, init ${(init.ms / 1000).toFixed(1)} s`,
  );
  // "The live API": a server on 127.0.0.1 (not the simulator) answering with the weather script.
  const weather = defineModelScript({
    turns: [
      { toolCalls: [{ name: 'get_weather', input: { city: 'Oslo' } }] },
      { text: 'It is 4 C and raining in Oslo.' },
    ],
  });
  local = await startLocalApi(weather);
  await writeFile(join(project, 'evals/sdk.agent.ts'), SDK_AGENTS);
  for (const [id, agent, strict] of [
    ['R1', 'responsesJson', true],
    ['R2', 'responsesSse', true],
    ['V1', 'vercelJson', true],
    ['V2', 'vercelSse', true],
    ['G1', 'moduleOpenai', false],
    ['G2', 'moduleAnthropicAgent', false],
    ['G3', 'moduleVercelAgent', false],
  ] as const) {
    await writeFile(join(project, `evals/${id.toLowerCase()}.eval.ts`), sdkTask(id, agent, strict));
  }
  await writeFile(join(project, 'evals/desk.agent.ts'), DATASET_AGENT);
  await mkdir(join(project, 'evals/data'), { recursive: true });
  await writeFile(join(project, 'evals/data/questions.yaml'), DATASET_YAML);
  await writeFile(join(project, 'evals/data/questions.csv'), DATASET_CSV);
  await writeFile(
    join(project, 'evals/d1.eval.ts'),
    datasetTask('D1', 'evals/data/questions.yaml'),
  );
  await writeFile(join(project, 'evals/d2.eval.ts'), datasetTask('D2', 'evals/data/questions.csv'));
}, 15 * 60_000);

afterAll(async () => {
  console.log(`e2e figures (any agent): ${figures.join('; ')}`);
  await local?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

function expectOk(result: CommandResult, what: string): void {
  expect(result.code, `${what} failed:\n${result.output}`).toBe(0);
}

const cassette = async (path: string) =>
  JSON.parse(await readFile(join(project, 'fixtures', path), 'utf8')) as {
    meta: Record<string, unknown>;
    exchanges: Array<{
      request: { path: string; body: { model: string } };
      response: { events?: unknown[] };
    }>;
  };

/** Recording "live": the local simulator, through each provider's key and base URL. */
const liveEnv = () => ({
  OPENAI_BASE_URL: `${local.url}/v1`,
  OPENAI_API_KEY: 'test-openai-key-0123456789',
  ANTHROPIC_BASE_URL: local.url,
  ANTHROPIC_API_KEY: 'test-anthropic-key-0123456789',
});

describe('any agent through the installed package (slow e2e)', () => {
  it(
    'records the openai SDK and the Vercel AI SDK on the Responses API offline, JSON and SSE, and replays them',
    async () => {
      const record = await runCommand(
        'npm',
        ['run', 'record', '--', '--simulated', '--task', 'R1,R2,V1,V2', '--trials', '2'],
        project,
      );
      expectOk(record, 'record --simulated');
      expect(record.output).not.toContain('✗');
      for (const [task, sdk, stream] of [
        ['R1', 'openai', false],
        ['R2', 'openai', true],
        ['V1', 'vercel', false],
        ['V2', 'vercel', true],
      ] as const) {
        const recorded = await cassette(`${task}/v1/trial-1.json`);
        expect(recorded.meta).toMatchObject({
          provider: 'openai',
          model: 'gpt-4.1-mini',
          source: 'simulator',
        });
        // The client as its user-agent names it: the Vercel AI SDK's requests carry its core
        // (ai/<version>) or its provider package (ai-sdk/openai/<version>), one or the other.
        expect(sdk === 'vercel' ? ['ai', '@ai-sdk/openai'] : [sdk]).toContain(recorded.meta.sdk);
        expect(recorded.exchanges.map((exchange) => exchange.request.path)).toEqual([
          '/responses',
          '/responses',
        ]);
        expect(recorded.exchanges[0]!.response.events !== undefined).toBe(stream);
      }
      const evaluated = await runCommand(
        'npm',
        ['run', 'eval', '--', '--task', 'R1,R2,V1,V2', '--trials', '2'],
        project,
      );
      expectOk(evaluated, 'eval of the SDK agents');
      for (const task of ['R1', 'R2', 'V1', 'V2'])
        expect(evaluated.output).toMatch(new RegExp(`│ ${task} +│ v1 +│ 2/2`));
      expect(evaluated.output).not.toContain('Anthropic');
      // The HTML report carries each Responses transcript: the call, its output, the answer.
      const html = await readFile(join(project, 'reports/latest.html'), 'utf8');
      expect(html).toContain('"format":"openai-responses"');
      expect(html).toContain('Oslo: 4 C, rain');
      expect(html).toContain('It is 4 C and raining in Oslo.');
    },
    10 * 60_000,
  );

  it(
    "records against a live API (here a local server) with each agent's provider and model, per suite",
    async () => {
      const record = await runCommand(
        'npm',
        [
          'run',
          'record',
          '--',
          '--suite',
          'responses-json',
          '--trial',
          '1',
          '--model',
          'responses-json=gpt-test-x',
        ],
        project,
        { env: liveEnv() },
      );
      expectOk(record, 'record --suite responses-json, live');
      expect(record.output).toContain('OpenAI agents at http://127.0.0.1');
      expect(record.output).toMatch(/✓ fixtures\/R1\/v1\/trial-1\.json: recorded, 2 requests/);
      expect(record.output).not.toContain('R2');
      const recorded = await cassette('R1/v1/trial-1.json');
      expect(recorded.meta).toMatchObject({
        source: 'live',
        provider: 'openai',
        sdk: 'openai',
        model: 'gpt-test-x',
      });
      expect(recorded.exchanges.map((exchange) => exchange.request.body.model)).toEqual([
        'gpt-test-x',
        'gpt-test-x',
      ]);
      const evaluated = await runCommand(
        'npm',
        ['run', 'eval', '--', '--task', 'R1', '--trials', '1'],
        project,
      );
      expectOk(evaluated, 'eval of the live-recorded trial');
      expect(evaluated.output).toContain('recorded from the live OpenAI API');
      expect(evaluated.output.replace(/\s+/g, ' ')).toContain(
        'recorded against a local server at 127.0.0.1, not the public OpenAI API',
      );
      expect(evaluated.output).not.toContain('Anthropic');
      // Trial 2 still holds the simulator's gpt-4.1-mini: the row mixes models, and says so.
      const mixed = await runCommand(
        'npm',
        ['run', 'eval', '--', '--task', 'R1', '--trials', '2'],
        project,
      );
      expectOk(mixed, 'eval of a row with two models');
      expect(mixed.output.replace(/\s+/g, ' ')).toContain(
        '⚠ R1 v1: its trials used different models (gpt-4.1-mini, gpt-test-x)',
      );
    },
    10 * 60_000,
  );

  it(
    'refuses to record a client built at module level (openai, @anthropic-ai/sdk, Vercel AI SDK), writing nothing',
    async () => {
      await mkdir(join(project, 'fixtures/G1/v1'), { recursive: true });
      const old = '{"an":"older cassette, kept byte for byte"}\n';
      await writeFile(join(project, 'fixtures/G1/v1/trial-1.json'), old);
      const reached = local.requests();
      const record = await runCommand(
        'npm',
        ['run', 'record', '--', '--task', 'G1,G2,G3', '--trial', '1'],
        project,
        {
          env: liveEnv(),
        },
      );
      expect(record.code, record.output).toBe(1);
      expect(record.output).not.toContain('✓');
      for (const [task, path] of [
        ['G1', '/v1/responses'],
        ['G2', '/v1/messages'],
        ['G3', '/v1/responses'],
      ] as const) {
        expect(record.output).toMatch(
          new RegExp(
            `✗ ${task} v1 trial 1: recording failed, nothing written: recording refused: the agent sent POST http://127\\.0\\.0\\.1:\\d+${path} around the given fetch.*pass the given fetch to your client`,
          ),
        );
      }
      expect(await readFile(join(project, 'fixtures/G1/v1/trial-1.json'), 'utf8')).toBe(old);
      expect(existsSync(join(project, 'fixtures/G2'))).toBe(false);
      expect(existsSync(join(project, 'fixtures/G3'))).toBe(false);
      // The old-cassette check is done: the planted file was all fixtures/G1 held.
      await rm(join(project, 'fixtures/G1'), { recursive: true });
      figures.push(
        `the guard: ${local.requests() - reached} of the module-level clients' requests reached the server (they kept the fetch of module load), every trial refused`,
      );
    },
    10 * 60_000,
  );

  it(
    'runs a dataset (YAML and CSV): per-case rates, --case, --cases, and shards that deal cases',
    async () => {
      const record = await runCommand(
        'npm',
        ['run', 'record', '--', '--simulated', '--suite', 'desk', '--trials', '2'],
        project,
      );
      expect(record.code, record.output).toBe(0);
      expect(record.output).toContain('! fixtures/D1/v1/unfair/trial-1.json: recorded');
      expect(existsSync(join(project, 'fixtures/D2/v1/a4/trial-2.json'))).toBe(true);
      const evaluated = await runCommand(
        'npm',
        ['run', 'eval', '--', '--suite', 'desk', '--trials', '2'],
        project,
      );
      expectOk(evaluated, 'eval of the datasets');
      expect(evaluated.output).toMatch(/│ D1 +│ v1 +│ 4\/6 +│ +0\.67/);
      expect(evaluated.output).toMatch(/│ D2 +│ v1 +│ 8\/8 +│ +1\.00/);
      expect(evaluated.output).toContain(
        "Cases of D1 Customer questions (the task's rates are their means)",
      );
      expect(evaluated.output).toMatch(/│ unfair +│ +0\/2 \(0\.00\) │/);
      const one = await runCommand(
        'npm',
        ['run', 'eval', '--', '--case', 'unfair', '--trials', '2'],
        project,
      );
      expectOk(one, 'eval --case unfair');
      expect(one.output).toMatch(/│ D1 +│ v1 +│ 0\/2 /);
      expect(one.output).toContain('2 trials in');
      const unknown = await runCommand('npm', ['run', 'eval', '--', '--case', 'nope'], project);
      expect(unknown.code).toBe(2);
      expect(unknown.output).toMatch(
        /unknown case nope: known cases are a1, a2, a3, a4, refund-time, unfair, where/,
      );
      const sample = await runCommand(
        'npm',
        ['run', 'eval', '--', '--suite', 'desk', '--cases', '2', '--trials', '2'],
        project,
      );
      expectOk(sample, 'eval --cases 2');
      expect(sample.output).toContain('8 trials in');
      for (const index of [1, 2]) {
        const shard = await runCommand(
          'npm',
          ['run', 'eval', '--', '--suite', 'desk', '--trials', '2', '--shard', `${index}/2`],
          project,
        );
        expectOk(shard, `eval --shard ${index}/2`);
        expect(shard.output).toMatch(/shard \d\/2: 7 trials/);
      }
      const merged = await runCommand(
        'npm',
        ['run', 'eval', '--', '--merge', 'reports/shards'],
        project,
      );
      expectOk(merged, 'eval --merge');
      expect(merged.output).toMatch(/│ D1 +│ v1 +│ 4\/6 /);
      expect(merged.output).toContain('14 trials from 2 shards');
      // A selection one filter empties names it, even where --task loads only the files naming the task.
      const empty = await runCommand(
        'npm',
        ['run', 'eval', '--', '--task', 'D1', '--suite', 'vercel-json', '--trials', '2'],
        project,
      );
      expect(empty.code).toBe(2);
      expect(empty.output).toContain('--task D1 --suite vercel-json selects no trial');
    },
    10 * 60_000,
  );
});
