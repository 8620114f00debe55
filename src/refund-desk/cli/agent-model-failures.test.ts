import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureCli } from '../../cli/testing/cli.js';
import {
  cutJson,
  type HostileApi,
  json,
  raw,
  sse,
  stall,
  startHostileApi,
  streamOf,
  textMessage,
} from '../../runtime/testing/hostile-api.js';
import { runAgentCli } from './agent.js';

let api: HostileApi;
let cwd: string;
beforeAll(async () => {
  api = await startHostileApi();
  cwd = mkdtempSync(join(tmpdir(), 'agent-model-failures-'));
});
afterAll(async () => {
  await api.close();
  rmSync(cwd, { recursive: true, force: true });
});

const agentCli = (args: string[], env: Record<string, string> = {}) =>
  captureCli(() =>
    runAgentCli(['Where is my refund?', '--unattended', '--max-retries', '1', ...args], {
      cwd,
      env: { ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: 'test-key', ...env },
    }),
  );

// Real HTTP to a local stand-in; a retry waits the real backoff (about 0.5 s).
describe('npm run agent: a model that answers badly', { timeout: 60_000 }, () => {
  it.each([
    ['JSON null', json('null'), /the body is null, not a JSON object/],
    [
      'an HTML page with status 200',
      raw('<html>Bad Gateway</html>', 'text/html'),
      /the body is text/,
    ],
    [
      'usage counts as strings',
      json(textMessage('x', { input_tokens: '30000', output_tokens: '1' })),
      /usage\.input_tokens is a string/,
    ],
  ])(
    'ends the run with status error, its id and the resume hint for %s (exit 1)',
    async (_name, handler, detail) => {
      api.script(handler);
      const { code, stdout, stderr } = await agentCli([]);
      expect(code).toBe(1);
      expect(stderr).toBe('');
      const runId = /^run (\S+) \(journal: /m.exec(stdout)?.[1];
      expect(runId).toBeDefined();
      expect(stdout).toMatch(/^\[error\] malformed response from the Messages API at \S+: /m);
      expect(stdout).toMatch(detail);
      expect(stdout).toContain(`continue it: npm run agent -- --resume ${runId}`);
      expect(stdout).not.toMatch(/Cannot read properties/);
      expect(api.requests).toHaveLength(2);
    },
  );

  it('retries a JSON body cut mid-way like a dropped connection, and finishes', async () => {
    api.script(
      cutJson('{"id":"msg_01","type":"message","content":[{"type":"text","text":"par'),
      json(textMessage('Please check the order number.')),
    );
    const { code, stdout } = await agentCli([]);
    expect(code).toBe(0);
    expect(stdout).toContain('Please check the order number.');
    expect(api.requests).toHaveLength(2);
  });

  it('retries overloaded_error sent mid-stream and falls back to --fallback-model', async () => {
    api.script(
      sse([
        streamOf()[0]!,
        { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      ]),
      sse(streamOf('From the fallback.')),
    );
    const { code, stdout } = await agentCli(['--stream', '--fallback-model', 'claude-fallback']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^step 1 model \S+ overloaded: falling back to claude-fallback$/m);
    expect(stdout).toContain('From the fallback.');
    expect(stdout).not.toContain('error 0');
  });

  it('keeps exit 2 and one line for a key the server refuses (403)', async () => {
    api.script(
      json({ type: 'error', error: { type: 'permission_error', message: 'not allowed' } }, 403),
    );
    const { code, stdout, stderr } = await agentCli([]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([
      'agent: model_api: Messages API error 403 permission_error: not allowed',
    ]);
  });

  it('ends a call at --model-timeout, naming the limit, and the run with exit 1', async () => {
    api.script(stall);
    const { code, stdout } = await agentCli(['--model-timeout', '0.2', '--max-retries', '1']);
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /^\[error\] no complete answer from the Messages API at \S+ within 0\.2 s .*--model-timeout SECONDS/m,
    );
    expect(api.requests).toHaveLength(2);
  });

  it('reads the deadline from HARNESS_MODEL_TIMEOUT too', async () => {
    api.script(stall);
    const { stdout } = await agentCli(['--max-retries', '1'], { HARNESS_MODEL_TIMEOUT: '0.1' });
    expect(stdout).toMatch(/within 0\.1 s/);
  });

  it.each([['0'], ['-1'], ['soon'], ['1e9'], ['']])(
    'refuses --model-timeout %j in one line (exit 2)',
    async (value) => {
      const { code, stderr } = await agentCli([`--model-timeout=${value}`]);
      expect(code).toBe(2);
      expect(stderr).toContain('--model-timeout takes seconds above 0');
    },
  );
});
