import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureCli } from '../../cli/testing/cli.js';
import { type RunningSimulator, startSimulator } from '../../simulator/server.js';
import { refundDeskPolicy } from '../simulator-policy.js';
import { runAgentCli } from './agent.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const QUESTION =
  'The customer of ORD1001 confirmed a new payee account. Please resubmit the refund.';
let simulator: RunningSimulator;
let cwd: string;

beforeAll(async () => {
  simulator = await startSimulator({ policies: [refundDeskPolicy] });
  cwd = mkdtempSync(join(tmpdir(), 'agent-resume-'));
  writeFileSync(join(cwd, 'AGENTS.md'), readFileSync(join(root, 'AGENTS.md')));
});
afterAll(async () => {
  await simulator.close();
  rmSync(cwd, { recursive: true, force: true });
});

// In-process: the three runs below used to be three CLI processes inside one 30 s budget,
// which failed on a busy machine. The entry point itself is covered by agent.test.ts.
function agentCli(args: string[]) {
  return captureCli(() =>
    runAgentCli(args, {
      cwd,
      env: { ANTHROPIC_BASE_URL: simulator.url, ANTHROPIC_API_KEY: 'any' },
    }),
  );
}

// Real HTTP to a local simulator in real time: a ceiling for a busy machine, not a benchmark.
describe('npm run agent -- --resume', { timeout: 60_000 }, () => {
  it('pauses for approval, resumes with --approve, and answers a finished run without the model', async () => {
    const paused = await agentCli([QUESTION, '--approve-later']);
    expect(paused.code).toBe(3);
    // The step depends on the simulated model's draw, which is seeded by the system prompt and
    // so by today's date: one lookup per step, or both lookups in one step.
    const pausedAt = Number(
      /^step (\d+) resubmit_refund\(.*\) waits for approval: /m.exec(paused.stdout)?.[1],
    );
    expect(pausedAt, paused.stdout).toBeGreaterThanOrEqual(2);
    const runId = /^run (\S+) \(journal: /m.exec(paused.stdout)?.[1];
    const hash = /waits for approval: .*hash ([0-9a-f]{12})\)$/m.exec(paused.stdout)?.[1];
    expect(paused.stdout).toContain(`npm run agent -- --resume ${runId} --approve ${hash}`);

    // A hash the listing did not show approves nothing, in one line.
    const stray = await agentCli(['--resume', runId!, '--approve', '0123456789ab']);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toMatch(
      /approvals name '0123456789ab', which is not waiting for approval/,
    );

    const approved = await agentCli(['--resume', runId!, '--approve', hash!]);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toMatch(
      new RegExp(`^approval of ${hash} \\(resubmit_refund\\) recorded: yes$`, 'm'),
    );
    expect(approved.stdout).toMatch(
      new RegExp(`^step ${pausedAt} resubmit_refund\\(.*\\) -> ask_approved \\d+ms$`, 'm'),
    );
    expect(approved.stdout).toMatch(/^\[done\] trace: runs\/\S+\.jsonl$/m);

    const requests = simulator.requestCount();
    const again = await agentCli(['--resume', runId!]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`already finished at step ${pausedAt + 1}`);
    expect(simulator.requestCount()).toBe(requests);

    const trace = readFileSync(join(cwd, 'runs', `${runId}.jsonl`), 'utf8');
    const types = trace
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).type);
    expect(types.filter((type) => type === 'run_resume')).toHaveLength(2);
    expect(types.filter((type) => type === 'run_start')).toHaveLength(1);
  });

  it('names the journal folder and the fix for an unknown run id', async () => {
    const { code, stderr } = await agentCli(['--resume', 'no-such-run']);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain("agent: journal_missing: no journal for run 'no-such-run'");
    expect(stderr).toContain('runs/journals/no-such-run.jsonl');
  });

  it('refuses a checkpoint of a build before run journals in one line', async () => {
    mkdirSync(join(cwd, 'runs', 'checkpoints'), { recursive: true });
    writeFileSync(join(cwd, 'runs', 'checkpoints', 'old-run.json'), '{"version":2}');
    const { code, stderr } = await agentCli(['--resume', 'old-run']);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([
      'agent: journal_format: runs/checkpoints/old-run.json is a checkpoint of an earlier build of harness-evals (0.1.0, before run journals); this build cannot resume it: start a new run',
    ]);
  });

  it('refuses a damaged journal in one line naming the line, and leaves it as it was', async () => {
    mkdirSync(join(cwd, 'runs', 'journals'), { recursive: true });
    const file = join(cwd, 'runs', 'journals', 'damaged.jsonl');
    const text = `${JSON.stringify({ type: 'run_started', runId: 'damaged', variant: 'upgraded', model: 'm', mode: 'unattended', prompt: 'p', system: 's', seq: 1, at: 'now' })}\n{"type":\n{"seq":3}\n`;
    writeFileSync(file, text);
    const { code, stderr } = await agentCli(['--resume', 'damaged']);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(
      /^agent: journal_corrupt: .*damaged\.jsonl:2: the run journal is damaged: the line is not JSON; restore the file from a backup/,
    );
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});
