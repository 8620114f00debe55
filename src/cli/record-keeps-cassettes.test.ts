import { spawn } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runRecordCli } from './record.js';
import { captureCli } from './testing/cli.js';

// Every way a recording can fail leaves the cassettes it did not finish byte for byte as they
// were, and says what it kept: a model script with no answer once replaced the trial's good
// cassette with one holding the 400 error, and a failed judge said "nothing written" yet wrote
// its judge cassette. The agents talk to a test server on 127.0.0.1 (their live API and the
// judge's), told how to fail by `mode`.

const root = fileURLToPath(new URL('../..', import.meta.url));
let project: string;
let server: Server;
let url: string;
let mode = 'ok';
const held: ServerResponse[] = [];
const PLANTED = `sk-ant-api03-${'PLANTED'.repeat(6)}`;

const AGENT = `import { defineAgent, defineJudge, defineJudgeScript, defineModelScript } from 'harness-evals';
async function ask(context) {
  const response = await context.fetch(\`\${context.baseURL}/v1/messages\`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': context.apiKey, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: context.model, max_tokens: 100, messages: [{ role: 'user', content: context.prompt }] }),
    ...(context.modelTimeoutMs && { signal: AbortSignal.timeout(context.modelTimeoutMs) }),
  });
  const body = await response.json();
  return { response, body };
}
export const keeper = defineAgent({
  suite: 'keep',
  variants: ['v1'],
  run: async (context) => {
    const { response, body } = await ask(context);
    if (response.ok) return { answer: body.content.map((block) => block.text ?? '').join('') };
    // K1 shrugs an API error off, as many agents do; the others report it.
    if (context.task === 'K1') return { answer: 'Sorry, something went wrong.' };
    return { answer: '', status: 'error', detail: JSON.stringify(body) };
  },
});
export const gap = defineModelScript({ name: 'gappy', respond: () => undefined });
export const polite = defineJudge({ name: 'polite', rubric: '- is polite', samples: 2 });
export const scripted = defineJudge({ name: 'scripted', rubric: '- is polite', samples: 2,
  modelScript: defineJudgeScript({ name: 'kind', respond: () => ({ label: 'pass', score: 1, reasoning: 'kind' }) }) });
`;
const TASKS = `import { defineTask } from 'harness-evals';
import { gap, keeper, polite, scripted } from './keep.agent.js';
defineTask({ agent: keeper, id: 'K1', title: 'K1', prompt: 'hello K1', modelScript: gap, check: () => {} });
defineTask({ agent: keeper, id: 'K2', title: 'K2', prompt: 'hello K2', check: () => {} });
defineTask({ agent: keeper, id: 'J1', title: 'J1', prompt: 'hello J1', judges: [polite], check: () => {} });
defineTask({ agent: keeper, id: 'J2', title: 'J2', prompt: 'hello J2', judges: [scripted], check: () => {} });
`;

/** A Messages API answer: text for the agent, a verdict (tool call) for the judge. */
function answer(judge: boolean, text: string) {
  const content = judge
    ? [
        {
          type: 'tool_use',
          id: 'toolu_1',
          name: 'submit_verdict',
          input: { label: 'pass', score: 1, reasoning: text },
        },
      ]
    : [{ type: 'text', text }];
  return {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-test',
    content,
    stop_reason: judge ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 5, output_tokens: 5 },
  };
}

const judgeCalls: string[] = [];
/** Called when a request is held (mode 'hang'): the Ctrl-C test interrupts record then. */
let onHeld: (() => void) | undefined;
function respond(request: IncomingMessage, response: ServerResponse, body: string) {
  const judge = body.includes('submit_verdict');
  if (judge) judgeCalls.push(body);
  const failing = judge ? mode.replace(/^judge-/, '') : mode;
  const json = (status: number, data: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json', 'x-should-retry': 'false' });
    response.end(JSON.stringify(data));
  };
  const error = (status: number) =>
    json(status, { type: 'error', error: { type: 'api_error', message: `failed ${status}` } });
  if (judge !== mode.startsWith('judge-') || failing === 'ok') {
    return json(200, answer(judge, judge ? 'polite' : 'Hello, how can I help?'));
  }
  if (failing === 'status400') return error(400);
  if (failing === 'status500') return error(500);
  if (failing === 'hang') {
    held.push(response);
    return void onHeld?.();
  }
  if (failing === 'secret') return json(200, answer(judge, `here: ${PLANTED}`));
  if (failing === 'text') return json(200, answer(false, 'I would rather not use the tool.'));
  throw new Error(`unknown mode ${mode} (${request.url})`);
}

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => respond(request, response, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  project = mkdtempSync(join(tmpdir(), 'record-keeps-'));
  for (const name of ['dist', 'node_modules']) symlinkSync(join(root, name), join(project, name));
  for (const name of ['package.json', 'vitest.evals.config.ts']) {
    cpSync(join(root, name), join(project, name));
  }
  mkdirSync(join(project, 'evals'));
  writeFileSync(join(project, 'evals/keep.agent.ts'), AGENT);
  writeFileSync(join(project, 'evals/keep.eval.ts'), TASKS);
  mode = 'ok';
  const good = await record(['--trial', '1']);
  expect(good.code, good.stdout + good.stderr).toBe(0);
}, 120_000);
const exitCode = process.exitCode;
afterAll(async () => {
  process.exitCode = exitCode;
  for (const response of held) response.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(project, { recursive: true, force: true });
});

/** `npm run record` in the project, live against the test server (agent and judge). */
async function record(args: string[], env: Record<string, string | undefined> = {}) {
  vi.spyOn(process, 'cwd').mockReturnValue(project);
  vi.stubEnv('CI', '');
  vi.stubEnv('ANTHROPIC_API_KEY', 'test-key-not-secret');
  vi.stubEnv('ANTHROPIC_BASE_URL', url);
  vi.stubEnv('HARNESS_JUDGE_BASE_URL', url);
  vi.stubEnv('OPENAI_API_KEY', undefined);
  vi.stubEnv('HARNESS_JUDGE_API_KEY', undefined);
  // record sets these itself (--simulated, --model-timeout): stubbed, they are restored after.
  vi.stubEnv('HARNESS_SIMULATOR_URL', undefined);
  vi.stubEnv('HARNESS_MODEL_TIMEOUT', undefined);
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  try {
    return await captureCli(() => runRecordCli(args));
  } finally {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  }
}

const fixture = (task: string, judge = false) =>
  join(project, `fixtures/${task}/v1/trial-1${judge ? '.judge' : ''}.json`);
const bytes = (file: string) => readFileSync(file);

describe('npm run record: a recording that fails keeps the old cassette byte for byte', () => {
  it.each([
    ['a model script with no answer for request 1', 'K1', 'ok', ['--simulated']],
    ['the API answering 400', 'K2', 'status400', []],
    ['the API answering 500', 'K2', 'status500', []],
    ['a model call past --model-timeout', 'K2', 'hang', ['--model-timeout', '0.5']],
    ['a credential in the answer (the writer refuses it)', 'K2', 'secret', []],
    ['the agent of a judged trial failing', 'J1', 'status500', []],
  ])('%s', { timeout: 120_000 }, async (_, task, failing, flags) => {
    const files = [fixture(task), ...(task === 'J1' ? [fixture(task, true)] : [])];
    const before = files.map(bytes);
    mode = failing;
    const { code, stdout } = await record(['--task', task, '--trial', '1', ...flags]);
    expect(code, stdout).toBe(1);
    expect(stdout).toMatch(new RegExp(`✗ ${task} v1 trial 1: recording failed, nothing written`));
    expect(files.map(bytes)).toEqual(before);
  });
});

describe('npm run record: a judge that fails writes no judge cassette and keeps the agent one', () => {
  it.each([
    ['the judge API answering 500', 'judge-status500', [], {}],
    ['a judge call past --model-timeout', 'judge-hang', ['--model-timeout', '0.5'], {}],
    ['a judge answer with no verdict', 'judge-text', [], {}],
    ['a credential in a verdict (the writer refuses it)', 'judge-secret', [], {}],
    [
      "the judge's key missing once the agent is recorded",
      'ok',
      ['--judge-model', 'openai:gpt-5-mini'],
      { OPENAI_BASE_URL: undefined },
    ],
  ])('%s', { timeout: 120_000 }, async (_, failing, flags, env) => {
    const judgeBefore = bytes(fixture('J1', true));
    const agentBefore = bytes(fixture('J1'));
    mode = failing;
    const { code, stdout } = await record(['--task', 'J1', '--trial', '1', ...flags], env);
    expect(code, stdout).toBe(1);
    expect(bytes(fixture('J1', true))).toEqual(judgeBefore);
    // The agent's new recording is kept (its recordedAt is new), and the line says so.
    expect(bytes(fixture('J1'))).not.toEqual(agentBefore);
    const line = stdout.split('\n').find((text) => text.includes('J1 v1 trial 1')) ?? stdout;
    expect(line).toContain(
      "✗ J1 v1 trial 1: the agent's cassette fixtures/J1/v1/trial-1.json was recorded and is kept; the judge's calls were not recorded, nothing written for them",
    );
    const samples = flags.includes('--judge-model') ? ' --judge-model openai:gpt-5-mini' : '';
    expect(line).toContain(
      `record only the judge: npm run record -- --judge-only --task J1 --variant v1 --trial 1${samples}`,
    );
    expect(stdout).toMatch(/the judge of 1 trial not recorded \(its agent cassette kept\)/);
  });
});

describe('npm run record --judge-simulated / --judge-script: the agent live, its judges offline', () => {
  const meta = (file: string) =>
    (JSON.parse(readFileSync(file, 'utf8')) as { meta: { source: string } }).meta.source;

  it('records the agent live and the judge with its judge script, or the built-in judge', {
    timeout: 120_000,
  }, async () => {
    mode = 'ok';
    const calls = judgeCalls.length;
    const scriptOnly = await record(['--task', 'J2', '--trial', '1', '--judge-script']);
    expect(scriptOnly.code, scriptOnly.stdout + scriptOnly.stderr).toBe(0);
    const simulated = await record(['--task', 'J1', '--trial', '2', '--judge-simulated']);
    expect(simulated.code, simulated.stdout + simulated.stderr).toBe(0);
    expect(judgeCalls.length).toBe(calls);
    for (const [task, trial] of [
      ['J2', 1],
      ['J1', 2],
    ] as const) {
      const base = join(project, `fixtures/${task}/v1/trial-${trial}`);
      expect([meta(`${base}.json`), meta(`${base}.judge.json`)]).toEqual(['live', 'simulator']);
    }
  });

  it('--judge-script refuses a judge without a judge script, keeping the agent cassette, with one line', {
    timeout: 120_000,
  }, async () => {
    mode = 'ok';
    const { code, stdout } = await record(['--task', 'J1', '--trial', '3', '--judge-script']);
    expect(code, stdout).toBe(1);
    expect(stdout).toContain(
      "the judge's calls were not recorded, nothing written for them (judge 'polite' has no judge script (modelScript on defineJudge) to answer it with --judge-script: give it one, or record with --judge-simulated for the built-in judge)",
    );
    expect(stdout).toContain(
      'record only the judge: npm run record -- --judge-only --task J1 --variant v1 --trial 3 --simulated',
    );
  });

  it('refuses --judge-simulated with --simulated, --judge-script with --judge-simulated, and both with --verify', async () => {
    for (const [flags, problem] of [
      [
        ['--simulated', '--judge-simulated'],
        '--simulated already answers the judges offline: drop --judge-simulated',
      ],
      [
        ['--judge-script', '--judge-simulated'],
        'give --judge-script or --judge-simulated, not both',
      ],
      [
        ['--verify', '--judge-script'],
        '--verify checks the cassettes already recorded: drop --judge-script',
      ],
    ] as const) {
      const { code, stderr } = await record([...flags]);
      expect(code).toBe(2);
      expect(stderr).toContain(problem);
    }
  });
});

describe('npm run record: Ctrl-C', () => {
  it('keeps the old cassettes byte for byte, leaves no temp file, and says what it kept', {
    timeout: 120_000,
  }, async () => {
    const files = [fixture('K2'), fixture('J1'), fixture('J1', true)];
    const before = files.map(bytes);
    mode = 'hang';
    const child = spawn(
      process.execPath,
      [join(root, 'src/cli/launch.mjs'), 'record', '--task', 'K2,J1', '--trial', '1'],
      {
        cwd: project,
        env: {
          ...process.env,
          CI: '',
          ANTHROPIC_API_KEY: 'test-key-not-secret',
          ANTHROPIC_BASE_URL: url,
          HARNESS_JUDGE_BASE_URL: url,
        },
      },
    );
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stdout += chunk;
    });
    onHeld = () => {
      onHeld = undefined;
      child.kill('SIGINT');
    };
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, stdout).toBe(130);
    expect(files.map(bytes)).toEqual(before);
    for (const task of ['K2', 'J1']) {
      const folder = join(project, `fixtures/${task}/v1`);
      expect(readdirSync(folder).filter((name) => !name.endsWith('.json'))).toEqual([]);
    }
    expect(stdout).toContain(
      'record: interrupted (Ctrl-C): the trials listed above as recorded are kept; every other trial wrote nothing and keeps its old cassette',
    );
  });
});
