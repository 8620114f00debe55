import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runRecordCli } from './record.js';
import { captureCli } from './testing/cli.js';

// A gateway answering every request with an error that echoes the key it was sent (some do),
// plus a key of the known shape and a terminal control sequence.
const GATEWAY_KEY = 'gw-live-0123456789abcdefXYZ';
const ECHOED = 'sk-ant-api03-ECHOECHOECHOECHOECHO';
const root = fileURLToPath(new URL('../..', import.meta.url));
let server: Server;
let url: string;
let project: string;
/** How long the stalled call stayed open, once the client closed it. */
let hung: Promise<number> | undefined;

beforeAll(async () => {
  server = createServer((request, response) => {
    // Under /hang: the first call gets headers, then nothing more (a stalled upstream), until
    // the client gives up on it; later calls get an error that is not retried.
    if (request.url?.startsWith('/hang/') && hung === undefined) {
      const started = performance.now();
      hung = new Promise((resolve) =>
        response.on('close', () => resolve(performance.now() - started)),
      );
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{');
      return;
    }
    request.resume();
    request.on('end', () => {
      const sent = request.headers['x-api-key'] ?? request.headers.authorization;
      const key = String(sent).replace(/^Bearer /, '');
      response.writeHead(400, { 'content-type': 'application/json' });
      const message = `key ${key} is not enabled for this model (${ECHOED})\u001b[2J`;
      response.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request', message } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A throwaway project with T2 only, so a recording writes nowhere near the repository.
  project = mkdtempSync(join(tmpdir(), 'record-secrets-'));
  for (const name of ['dist', 'node_modules']) symlinkSync(join(root, name), join(project, name));
  for (const name of ['package.json', 'vitest.evals.config.ts', 'AGENTS.md']) {
    cpSync(join(root, name), join(project, name));
  }
  mkdirSync(join(project, 'evals'));
  for (const name of ['refund-desk.agent.ts', 't2-order-not-found.eval.ts']) {
    cpSync(join(root, 'evals', name), join(project, 'evals', name));
  }
});
afterAll(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(project, { recursive: true, force: true });
});

describe('npm run record with a key the server echoes', () => {
  it('masks the key on the terminal and in the trial trace, and writes no cassette', {
    timeout: 120_000,
  }, async () => {
    vi.spyOn(process, 'cwd').mockReturnValue(project);
    vi.stubEnv('CI', '');
    vi.stubEnv('ANTHROPIC_API_KEY', GATEWAY_KEY);
    vi.stubEnv('ANTHROPIC_BASE_URL', url);
    vi.stubEnv('GITHUB_STEP_SUMMARY', '');
    const { code, stdout, stderr } = await captureCli(() =>
      runRecordCli(['--task', 'T2', '--variant', 'upgraded', '--trial', '1']),
    );
    expect(code, stdout + stderr).toBe(1);
    expect(stdout).toMatch(
      /^ {2}✗ T2 upgraded trial 1: .*key \[redacted ANTHROPIC_API_KEY\] is not enabled.*sk-ant-\[redacted\]/m,
    );
    for (const printed of [stdout, stderr]) {
      expect(printed).not.toContain(GATEWAY_KEY);
      expect(printed).not.toContain(ECHOED);
      expect(printed).not.toContain('\u001b');
    }
    const trace = readFileSync(join(project, 'runs/eval/T2/upgraded/trial-1.jsonl'), 'utf8');
    expect(trace).toContain('[redacted ANTHROPIC_API_KEY]');
    expect(trace).not.toContain(GATEWAY_KEY);
    expect(trace).not.toContain(ECHOED);
    const fixtures = join(project, 'fixtures');
    expect(existsSync(fixtures) ? readdirSync(fixtures, { recursive: true }) : []).toEqual([]);
  });
});

describe('npm run record with a base URL that carries a password', () => {
  it('never prints the password, and checks OPENAI_BASE_URL before any trial runs', {
    timeout: 120_000,
  }, async () => {
    vi.spyOn(process, 'cwd').mockReturnValue(project);
    vi.stubEnv('CI', '');
    vi.stubEnv('ANTHROPIC_API_KEY', 'test-key-not-secret');
    vi.stubEnv('GITHUB_STEP_SUMMARY', '');
    const password = 'pw-0123456789-secret';
    vi.stubEnv('ANTHROPIC_BASE_URL', url.replace('http://', `http://gateway-user:${password}@`));
    vi.stubEnv('OPENAI_BASE_URL', `https://user:${password}@gateway.test/v1`);
    const { stdout, stderr } = await captureCli(() =>
      runRecordCli(['--task', 'T2', '--variant', 'upgraded', '--trial', '1']),
    );
    expect(stdout).toMatch(
      /^recording live: Anthropic agents at http:\/\/\[redacted\]@127\.0\.0\.1:\d+ \(ANTHROPIC_BASE_URL\) \(source: live\)$/m,
    );
    expect(stdout + stderr).not.toContain(password);
    expect(stdout + stderr).not.toContain('gateway-user');

    vi.stubEnv('OPENAI_BASE_URL', 'gateway.test/v1');
    const bad = await captureCli(() =>
      runRecordCli(['--task', 'T2', '--variant', 'upgraded', '--trial', '1']),
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe(
      "record: OPENAI_BASE_URL 'gateway.test/v1' is not an http(s) URL: set it to e.g. http://127.0.0.1:8787, or unset it to use the live API",
    );
    expect(bad.stdout).not.toMatch(/T2 upgraded trial 1/);

    vi.stubEnv('OPENAI_BASE_URL', '');
    vi.stubEnv('HARNESS_JUDGE_BASE_URL', 'judge.test/v1');
    const badJudge = await captureCli(() =>
      runRecordCli(['--task', 'T2', '--variant', 'upgraded', '--trial', '1']),
    );
    expect(badJudge.code).toBe(2);
    expect(badJudge.stderr.trim()).toBe(
      "record: HARNESS_JUDGE_BASE_URL 'judge.test/v1' is not an http(s) URL: set it to e.g. http://127.0.0.1:8787, or unset it to use the live API",
    );
    expect(badJudge.stdout).not.toMatch(/T2 upgraded trial 1/);
    vi.unstubAllEnvs();
  });
});

describe('npm run record --model-timeout', () => {
  it('gives each model call of the recording trials that deadline', {
    timeout: 120_000,
  }, async () => {
    vi.spyOn(process, 'cwd').mockReturnValue(project);
    vi.stubEnv('CI', '');
    vi.stubEnv('ANTHROPIC_API_KEY', 'test-key-not-secret');
    vi.stubEnv('ANTHROPIC_BASE_URL', `${url}/hang`);
    vi.stubEnv('GITHUB_STEP_SUMMARY', '');
    vi.stubEnv('HARNESS_MODEL_TIMEOUT', undefined);
    const { code, stdout, stderr } = await captureCli(() =>
      runRecordCli([
        '--task',
        'T2',
        '--variant',
        'upgraded',
        '--trial',
        '1',
        '--model-timeout',
        '0.2',
      ]),
    );
    expect(code, stdout + stderr).toBe(1);
    expect(stdout).toMatch(/^ {2}✗ T2 upgraded trial 1: /m);
    // The trial's client closed the stalled call at its 0.2 s deadline (not the default 600 s),
    // then retried it. (The deadline runs from the call's start, before the request arrives
    // here, so the server sees it open for less than 0.2 s on a busy machine.)
    expect(hung).toBeDefined();
    expect(await hung).toBeLessThan(30_000);
  });
});
