import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../simulator/server.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const agent = join(root, 'src/cli/agent.ts');
// `npm run agent` is `node --import tsx`; from another cwd the loader must be named by path.
const tsx = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;
let simulator: Awaited<ReturnType<typeof startSimulator>>;
let cwd: string;

beforeAll(async () => {
  simulator = await startSimulator();
  cwd = mkdtempSync(join(tmpdir(), 'agent-cli-'));
});
afterAll(async () => {
  await simulator.close();
  rmSync(cwd, { recursive: true, force: true });
});

function agentCli(args: string[], env: Record<string, string | undefined>) {
  return run(process.execPath, ['--import', tsx, agent, ...args], {
    cwd,
    env: { ...process.env, ...env, CI: '' },
  }).then(
    (result) => ({ code: 0, ...result }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

describe('npm run agent', () => {
  it('completes a run against a local stand-in via ANTHROPIC_BASE_URL and writes its trace', async () => {
    const { code, stdout } = await agentCli(
      ['How far along is the refund for order ORD3003?', '--unattended'],
      {
        ANTHROPIC_BASE_URL: simulator.url,
        ANTHROPIC_API_KEY: 'test-key',
      },
    );
    expect(code).toBe(0);
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
  }, 20_000);

  it('gives one clear line and exit 2 without a key', async () => {
    const { code, stdout, stderr } = await agentCli(['hi'], { ANTHROPIC_API_KEY: '' });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('ANTHROPIC_API_KEY is not set');
  }, 20_000);
});
