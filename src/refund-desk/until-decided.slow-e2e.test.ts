import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixedTrials } from '../eval/stats/sequential-forecast.js';
import { REPOSITORY_ROOT } from '../eval/testing/hostile-eval-project.js';
import { linkedProject, runCliIn } from '../eval/testing/judged-project.js';

const root = REPOSITORY_ROOT;
const made: string[] = [];
afterAll(() => {
  for (const folder of made) rmSync(folder, { recursive: true, force: true });
});

/**
 * The refund desk's upgraded harness as the baseline and a `candidate` beside it: the same
 * harness, whose simulated model follows the prompt's rules at the candidate's pass rate (the
 * stand-in for a prompt change that lowers T1's rate, or does not). T1 as committed.
 */
function project(candidateRate: number): string {
  const dir = linkedProject(
    'refund-until-decided-',
    {
      'evals/refund-desk.agent.ts': `import { defineAgent } from 'harness-evals';
import { createRefundDeskHarness, createRefundDeskPolicy } from '#reference-agents';
export const refundDesk = defineAgent({
  suite: 'refund-desk',
  variants: ['upgraded', 'candidate'],
  baseline: 'upgraded',
  mode: 'unattended',
  modelScript: createRefundDeskPolicy({ passRate: { upgraded: 1, candidate: ${candidateRate} } }),
  createHarness: (_variant, { projectDir }) =>
    createRefundDeskHarness('upgraded', { projectDir, instructionFiles: ['AGENTS.md'] }),
});
`,
    },
    ['AGENTS.md'],
  );
  made.push(dir);
  cpSync(join(root, 'evals/t1-business-rules.eval.ts'), join(dir, 'evals/t1.eval.ts'));
  return dir;
}

const trialsOf = (dir: string, variant: string) =>
  readdirSync(join(dir, 'fixtures/T1', variant)).filter((name) => /^trial-\d+\.json$/.test(name))
    .length;

// A fixed-n design with the same alpha and power needs this many trials per side for a fall
// of 0.10 from 1.00 (one row: the one-sided Fisher test's exact power).
const FIXED_N = fixedTrials(1, 0.9, 0.05, 0.2)!;

describe('record --until-decided on the refund desk (T1, simulated)', () => {
  it('decides a change that lowers T1 a drop, and the gate fails on it', {
    timeout: 600_000,
  }, async () => {
    const dir = project(0.3);
    const run = await runCliIn(dir, 'record', ['--simulated', '--until-decided', '--batch', '4']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/T1 candidate vs upgraded: drop \(after \d+\)/);
    expect(trialsOf(dir, 'candidate')).toBeLessThan(FIXED_N);
    const evaluated = await runCliIn(dir, 'eval', ['--trials', 'all']);
    expect(evaluated.code).toBe(1);
    expect(evaluated.stdout).toMatch(/T1 candidate against upgraded: a drop, decided after/);
  });

  it('decides a change that does not lower T1 no drop > 0.10, and the gate passes', {
    timeout: 600_000,
  }, async () => {
    const dir = project(1);
    const run = await runCliIn(dir, 'record', ['--simulated', '--until-decided', '--batch', '6']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/T1 candidate vs upgraded: no drop > 0\.10 \(after \d+\)/);
    expect(trialsOf(dir, 'candidate')).toBeLessThan(FIXED_N);
    const evaluated = await runCliIn(dir, 'eval', ['--trials', 'all']);
    expect(evaluated.code, evaluated.stdout).toBe(0);
  });
});
