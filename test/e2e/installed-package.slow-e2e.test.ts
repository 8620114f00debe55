import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { installedProject } from './testing/installed-project.js';
import { type CommandResult, runCommand } from './testing/run-command.js';

/** A custom agent a user adds after init: an OpenAI-compatible client and a raw SDK loop. */
const WEATHER_AGENTS = `import { createAnthropicToolLoop, createChatCompletionsAgent, defineAgent, defineModelScript, type AdapterTool } from 'harness-evals';

const weather: AdapterTool = {
  name: 'get_weather',
  description: 'Current weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  run: (input) => String(input.city) + ': 4 C, rain',
};

export const weatherModel = defineModelScript({
  turns: [
    { toolCalls: [{ name: 'get_weather', input: { city: 'Oslo' } }] },
    { text: 'It is 4 C and raining in Oslo.' },
  ],
});

export const SYSTEM = 'You report the weather.';

export const openaiWeather = defineAgent({
  suite: 'weather-openai',
  variants: ['v1'],
  provider: 'openai',
  modelScript: weatherModel,
  run: createChatCompletionsAgent({ system: SYSTEM, tools: [weather], stream: true }),
});

export const sdkWeather = defineAgent({
  suite: 'weather-sdk',
  variants: ['v1'],
  modelScript: weatherModel,
  run: createAnthropicToolLoop({ system: SYSTEM, tools: [weather] }),
});
`;

const weatherTask = (id: string, agent: string) => `import { defineTask } from 'harness-evals';
import { expect } from 'vitest';
import { ${agent} } from './weather.agent.js';

defineTask({
  agent: ${agent},
  id: '${id}',
  title: 'Weather',
  prompt: 'What is the weather in Oslo?',
  check: ({ answer, toolCalls }) => {
    expect(toolCalls.map((call) => call.tool)).toEqual(['get_weather']);
    expect(answer).toContain('raining');
  },
});
`;

/** A model script that stops answering after the tool call: recording must fail, in one line. */
const UNSCRIPTED_TASK = `import { createChatCompletionsAgent, defineAgent, defineModelScript, defineTask } from 'harness-evals';

const agent = defineAgent({
  suite: 'unscripted',
  variants: ['v1'],
  provider: 'openai',
  modelScript: defineModelScript({ name: 'one-turn', turns: [{ toolCalls: [{ name: 'get_weather', input: { city: 'Oslo' } }] }] }),
  run: createChatCompletionsAgent({ tools: [{ name: 'get_weather', parameters: { type: 'object' }, run: () => 'rain' }] }),
});

defineTask({ agent, id: 'W9', title: 'Unscripted', prompt: 'Weather?', check: () => {} });
`;

let work: string | undefined;
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

function expectOk(result: CommandResult, what: string): void {
  expect(result.code, `${what} failed:\n${result.output}`).toBe(0);
}

describe('the installed package (slow e2e: npm pack, offline install, init, eval, record)', () => {
  it(
    'installs from its tarball into a fresh project outside the repo and works there offline',
    async () => {
      work = await mkdtemp(join(tmpdir(), 'harness-evals-e2e-'));
      const installed = await installedProject(work, 'my-project');
      const { paths, install } = installed;
      const project = installed.dir;
      expect(paths).toContain('dist/cli/main.js');
      expect(paths).toContain('dist/index.d.ts');
      expect(paths).toContain('LICENSE');
      expect(paths).toContain('templates/init/evals/helpdesk.agent.ts');
      expect(
        paths.filter((path) =>
          /refund-desk\/|debug-agent\/|\.test\.|(^|\/)testing\/|^evals\/|^fixtures\//.test(path),
        ),
      ).toEqual([]);

      const init = await runCommand('npx', ['harness-evals', 'init'], project);
      expectOk(init, 'harness-evals init');
      expect(init.output).toContain('created  evals/helpdesk.agent.ts');
      expect(init.output).toContain('created  package.json script "eval": harness-evals eval');
      expect(init.output).toContain('created  package.json script "view": harness-evals view');
      const ignored = (await readFile(join(project, '.gitignore'), 'utf8')).split('\n');
      for (const line of ['reports/latest.html', 'reports/shards/', '*.tgz'])
        expect(ignored).toContain(line);
      expect(existsSync(join(project, 'fixtures/H1/upgraded/trial-3.json'))).toBe(true);
      // The example's judged check, recorded with its judge script beside the trial.
      expect(existsSync(join(project, 'fixtures/H1/upgraded/trial-3.judge.json'))).toBe(true);
      const again = await runCommand('npx', ['harness-evals', 'init', '--no-record'], project);
      expectOk(again, 'init a second time');
      expect(again.output).not.toContain('created');
      expect(again.output).toContain('kept     evals/helpdesk.agent.ts (exists; left alone)');

      const coldEval = await runCommand('npm', ['run', 'eval'], project);
      expectOk(coldEval, 'npm run eval after init');
      expect(coldEval.output).toContain('gate: passed');
      expect(coldEval.output).toContain('H1 clear-status:');

      // The user adds their own agents, each with a model script, and records offline.
      await writeFile(join(project, 'evals/weather.agent.ts'), WEATHER_AGENTS);
      await writeFile(
        join(project, 'evals/w1-weather.eval.ts'),
        weatherTask('W1', 'openaiWeather'),
      );
      await writeFile(join(project, 'evals/w2-weather.eval.ts'), weatherTask('W2', 'sdkWeather'));
      const record = await runCommand(
        'npm',
        ['run', 'record', '--', '--simulated', '--task', 'W1,W2'],
        project,
      );
      expectOk(record, 'record --simulated');
      expect(record.output).not.toContain('✗');
      expect(existsSync(join(project, 'fixtures/W1/v1/trial-3.json'))).toBe(true);
      const cassette = JSON.parse(
        await readFile(join(project, 'fixtures/W1/v1/trial-1.json'), 'utf8'),
      );
      expect(cassette.exchanges[0].request.path).toBe('/chat/completions');

      await writeFile(join(project, 'evals/w9-unscripted.eval.ts'), UNSCRIPTED_TASK);
      const unscripted = await runCommand(
        'npm',
        ['run', 'record', '--', '--simulated', '--task', 'W9', '--trial', '1'],
        project,
      );
      expect(unscripted.code).toBe(1);
      expect(unscripted.output).not.toContain('✓');
      expect(unscripted.output).toMatch(
        /✗ W9 v1 trial 1: recording failed, nothing written: W9: nothing answers the agent's requests offline .*add a model script/,
      );
      expect(existsSync(join(project, 'fixtures/W9'))).toBe(false);
      await unlink(join(project, 'evals/w9-unscripted.eval.ts'));

      const evalAgain = await runCommand('npm', ['run', 'eval'], project);
      expectOk(evalAgain, 'npm run eval with the custom agents');
      expect(evalAgain.output).toMatch(/│ W1\s+│ v1\s+│ 3\/3/);
      expect(evalAgain.output).toMatch(/│ W2\s+│ v1\s+│ 3\/3/);

      // A change to what the agent sends makes its fixtures stale, with the diff and the command.
      const agentFile = join(project, 'evals/weather.agent.ts');
      await writeFile(
        agentFile,
        (await readFile(agentFile, 'utf8')).replace(
          'You report the weather.',
          'You report the weather, briefly.',
        ),
      );
      const stale = await runCommand('npm', ['run', 'eval', '--', '--task', 'W1'], project);
      expect(stale.code).toBe(1);
      expect(stale.output).toContain('stale');
      expect(stale.output).toContain(
        'npm run record -- --task W1 --variant v1 --trial 1,2,3 --simulated',
      );

      // A team that removed the example does not get it back from another init.
      for (const file of ['helpdesk.agent.ts', 'helpdesk.model.ts', 'h1-ticket-status.eval.ts'])
        await unlink(join(project, 'evals', file));
      const third = await runCommand('npx', ['harness-evals', 'init', '--no-record'], project);
      expectOk(third, 'init after the example was removed');
      expect(third.output).toContain('skipped  evals/helpdesk.agent.ts (the example');
      expect(existsSync(join(project, 'evals/helpdesk.agent.ts'))).toBe(false);

      console.log(
        `e2e figures: tarball ${(installed.tarballBytes / 1024).toFixed(0)} KiB (${paths.length} files, npm pack ${(installed.pack.ms / 1000).toFixed(1)} s); npm install --offline ${(install.ms / 1000).toFixed(1)} s; init (with recording) ${(init.ms / 1000).toFixed(1)} s; cold npm run eval ${(coldEval.ms / 1000).toFixed(1)} s`,
      );
    },
    15 * 60_000,
  );
});
