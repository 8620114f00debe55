import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureCli, PROCESS_TEST_TIMEOUT_MS, spawnCli } from '../../cli/testing/cli.js';
import { controlCharacters } from '../../core/testing/control-characters.js';
import { startSimulator } from '../../simulator/server.js';
import { refundDeskPolicy } from '../simulator-policy.js';
import { runAgentCli } from './agent.js';

let simulator: Awaited<ReturnType<typeof startSimulator>>;
let cwd: string;

beforeAll(async () => {
  simulator = await startSimulator({ policies: [refundDeskPolicy] });
  cwd = mkdtempSync(join(tmpdir(), 'agent-cli-'));
});
afterAll(async () => {
  await simulator.close();
  rmSync(cwd, { recursive: true, force: true });
});

function agentCli(args: string[], env: Record<string, string | undefined>) {
  return captureCli(() => runAgentCli(args, { cwd, env }));
}

// Real HTTP to a local simulator in real time: a ceiling for a busy machine, not a benchmark.
describe('npm run agent', { timeout: 60_000 }, () => {
  it('completes a run against a local stand-in via ANTHROPIC_BASE_URL and writes its trace', async () => {
    const { code, stdout } = await agentCli(
      ['How far along is the refund for order ORD3003?', '--unattended'],
      {
        ANTHROPIC_BASE_URL: simulator.url,
        ANTHROPIC_API_KEY: 'test-key',
      },
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/^run \S+ \(journal: /);
    expect(stdout).toMatch(
      /^step 1 get_order\(\{"order_id":"ORD3003"\}\) -> failed \[is_error\] \d+ms$/m,
    );
    const trace = /^\[done\] trace: (runs\/\S+\.jsonl)$/m.exec(stdout)?.[1];
    expect(trace).toBeDefined();
    const events = readFileSync(join(cwd, trace!), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events[0].type).toBe('run_start');
    expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'done' });
  });

  it('gives one clear line and exit 2 without a key', async () => {
    const { code, stdout, stderr } = await agentCli(['hi'], { ANTHROPIC_API_KEY: '' });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('ANTHROPIC_API_KEY is not set');
  });

  it('gives one clear line and exit 2 for an unreachable host; retries only with --verbose', async () => {
    // A port nothing listens on: the simulator's, after it closed.
    const closed = await startSimulator();
    await closed.close();
    const env = { ANTHROPIC_BASE_URL: closed.url, ANTHROPIC_API_KEY: 'test-key' };
    const args = ['Where is ORD1001?', '--unattended', '--max-retries', '1'];
    const quiet = await agentCli(args, env);
    expect(quiet.code).toBe(2);
    expect(quiet.stdout).toBe('');
    expect(quiet.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^agent: model_api: cannot reach the Messages API at ${closed.url}.*check ANTHROPIC_BASE_URL`,
        ),
      ),
    ]);
    const verbose = await agentCli([...args, '--verbose'], env);
    expect(verbose.code).toBe(2);
    expect(verbose.stdout).toMatch(/^step 1 model \S+: cannot reach .*; retry 1 in \d+ms$/m);
    expect(verbose.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('prints control characters in the answer as visible escapes, keeping its lines', async () => {
    const esc = '\u001b';
    const answer = `refund ${esc}]0;PWNED\u0007${esc}]52;c;Y3VybA==\u0007${esc}[2J${esc}[8m hidden\nsecond line`;
    // A stand-in Messages API on 127.0.0.1 that answers every call with that text.
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.setHeader('content-type', 'application/json');
        response.end(
          JSON.stringify({
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            model: 'm',
            content: [{ type: 'text', text: answer }],
            stop_reason: 'end_turn',
            stop_sequence: null,
            usage: { input_tokens: 1, output_tokens: 1 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const { code, stdout } = await agentCli(['Where is ORD1001?', '--unattended'], {
        ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
        ANTHROPIC_API_KEY: 'test-key',
      });
      expect(code).toBe(0);
      expect(controlCharacters(stdout)).toEqual([]);
      expect(stdout).toContain(
        '\nrefund \\u001b]0;PWNED\\u0007\\u001b]52;c;Y3VybA==\\u0007\\u001b[2J\\u001b[8m hidden\nsecond line\n',
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it(
    'runs as a script: one line on stderr and exit 2 for bad input',
    async () => {
      const { code, stdout, stderr } = await spawnCli('src/refund-desk/cli/agent.ts', ['hi'], {
        cwd,
        env: { ANTHROPIC_API_KEY: '' },
      });
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr.trim().split('\n')).toEqual([
        expect.stringContaining('agent: configuration: ANTHROPIC_API_KEY is not set'),
      ]);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
