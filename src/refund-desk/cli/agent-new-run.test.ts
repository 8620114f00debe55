import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { captureCli } from '../../cli/testing/cli.js';
import { type RunningSimulator, startSimulator } from '../../simulator/server.js';
import { refundDeskPolicy } from '../simulator-policy.js';
import { runAgentCli } from './agent.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
let simulator: RunningSimulator;
let cwd: string;

beforeAll(async () => {
  simulator = await startSimulator({ policies: [refundDeskPolicy] });
  cwd = mkdtempSync(join(tmpdir(), 'agent-new-run-'));
  writeFileSync(join(cwd, 'AGENTS.md'), readFileSync(join(root, 'AGENTS.md')));
});
afterAll(async () => {
  await simulator.close();
  rmSync(cwd, { recursive: true, force: true });
});
afterEach(() => {
  vi.useRealTimers();
});

function agentCli(args: string[]) {
  return captureCli(() =>
    runAgentCli(args, {
      cwd,
      env: { ANTHROPIC_BASE_URL: simulator.url, ANTHROPIC_API_KEY: 'any' },
    }),
  );
}

const runIdOf = (stdout: string) => /^run (\S+) \(journal: /m.exec(stdout)?.[1];

// Real HTTP to a local simulator in real time: a ceiling for a busy machine, not a benchmark.
describe('npm run agent, two new runs started in the same millisecond', { timeout: 60_000 }, () => {
  it("gives them distinct readable ids, and the second never touches the first one's trace", async () => {
    // Only Date is frozen: both runs start at the same instant, as two terminals can.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-03T07:00:00.123Z'));
    const first = await agentCli([
      "Why hasn't the refund for order ORD1001 arrived yet?",
      '--unattended',
    ]);
    expect(first.code, first.stderr).toBe(0);
    const firstId = runIdOf(first.stdout);
    expect(firstId).toMatch(/^2026-12-03T07-00-00-123Z-upgraded-[0-9a-f]{6}$/);
    const firstTrace = readFileSync(join(cwd, 'runs', `${firstId}.jsonl`), 'utf8');
    expect(firstTrace).toContain('"run_end"');

    const second = await agentCli(['Where is the refund for ORD2002?', '--unattended']);
    expect(second.code, second.stderr).toBe(0);
    const secondId = runIdOf(second.stdout);
    expect(secondId).toMatch(/^2026-12-03T07-00-00-123Z-upgraded-[0-9a-f]{6}$/);
    expect(secondId).not.toBe(firstId);
    expect(readFileSync(join(cwd, 'runs', `${firstId}.jsonl`), 'utf8')).toBe(firstTrace);
    expect(readFileSync(join(cwd, 'runs', `${secondId}.jsonl`), 'utf8')).toContain('ORD2002');
  });
});
