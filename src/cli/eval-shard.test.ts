import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { repositoryCopy } from '../eval/testing/judged-project.js';
import { runEvalCli } from './eval.js';
import { captureCli } from './testing/cli.js';

let project: string;

/** A throwaway copy of the repository's evals, so reports land there. */
beforeAll(() => {
  project = repositoryCopy('eval-shard-');
  // `npm run eval` in process (each call starts its own vitest), as if run from the copy in CI.
  vi.spyOn(process, 'cwd').mockReturnValue(project);
  vi.stubEnv('CI', '1');
  vi.stubEnv('GITHUB_STEP_SUMMARY', '');
});
afterAll(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  rmSync(project, { recursive: true, force: true });
});

async function evalCli(args: string[]): Promise<string> {
  const { code, stdout, stderr } = await captureCli(() => runEvalCli(args));
  expect(code, `eval ${args.join(' ')}:\n${stdout}${stderr}`).toBe(0);
  return stdout;
}

function reportWithoutTimestamp(): unknown {
  const report = JSON.parse(readFileSync(join(project, 'reports/latest.json'), 'utf8'));
  delete report.generatedAt;
  return report;
}

describe('npm run eval -- --shard / --merge', () => {
  it('--shard 1/2 plus --shard 2/2 plus --merge gives the unsharded report', {
    timeout: 300_000,
  }, async () => {
    const selection = ['--task', 'T2,T5', '--trials', '3'];
    await evalCli(selection);
    const unsharded = reportWithoutTimestamp();

    // The slices run one after the other, each on its own, as on the machines of a CI matrix.
    const first = await evalCli([...selection, '--shard', '1/2']);
    const second = await evalCli([...selection, '--shard', '2/2']);
    expect(first).toMatch(/^shard 1\/2: \d+ trials/m);
    const trials = [first, second].map((out) => Number(/: (\d+) trials/.exec(out)?.[1]));
    expect(trials[0]! + trials[1]!).toBe(12);
    // Dealt by trial: each shard gets half of each task's six trials, give or take one.
    expect(Math.abs(trials[0]! - trials[1]!)).toBeLessThanOrEqual(2);

    const merged = await evalCli(['--merge', 'reports/shards']);
    expect(merged).toContain('12 trials from 2 shards');
    expect(merged).toMatch(/gate: passed/);
    expect(reportWithoutTimestamp()).toEqual(unsharded);

    // One record taken out of a shard file: the merge refuses instead of scoring 5 of 6 trials.
    const file = join(project, 'reports/shards/shard-1-of-2.json');
    const shard = JSON.parse(readFileSync(file, 'utf8'));
    const [dropped] = shard.records.splice(0, 1);
    writeFileSync(file, JSON.stringify(shard));
    const refused = await captureCli(() => runEvalCli(['--merge', 'reports/shards']));
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(
      `eval: cannot merge: no shard has a record of ${dropped.task} ${dropped.variant} trial ${dropped.trial},`,
    );
  });
});
