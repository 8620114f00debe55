import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  evalIn,
  projectWith,
  REPOSITORY_ROOT,
  readReport,
  removeEvalProjects,
  writeEval,
} from '../testing/hostile-eval-project.js';

// The break (issue 28): a hand-edited cassette (a failing trial turned into a passing one) passed
// `eval` with a warning; only `record --verify` caught it, and no workflow ran that. Every eval now
// checks each cassette's content hash.

afterEach(() => {
  vi.restoreAllMocks();
  removeEvalProjects();
});

/** A project with its own copy of T6's cassettes (not a link to the repository's). */
function t6Project(): string {
  const project = projectWith(writeEval(''));
  rmSync(join(project, 'fixtures'));
  cpSync(join(REPOSITORY_ROOT, 'fixtures/T6'), join(project, 'fixtures/T6'), { recursive: true });
  cpSync(
    join(REPOSITORY_ROOT, 'evals/t6-missing-payment.eval.ts'),
    join(project, 'evals/t6-missing-payment.eval.ts'),
  );
  rmSync(join(project, 'evals/t2-hostile.eval.ts'));
  return project;
}

/** Make T6 baseline trial 1 pass by editing its final answer, as a person would, hash untouched. */
function editToPass(project: string): void {
  const file = join(project, 'fixtures/T6/baseline/trial-1.json');
  const cassette = JSON.parse(readFileSync(file, 'utf8'));
  const last = cassette.exchanges.at(-1).response.body.content;
  const text = last.find((block: { type: string }) => block.type === 'text');
  text.text = `${text.text} Please send a payment screenshot.`;
  writeFileSync(file, `${JSON.stringify(cassette, null, 2)}\n`);
}

describe('an eval replays no cassette whose content changed since it was recorded', () => {
  it('fails the gate on a hand-edited cassette, as a fixture problem, naming it', {
    timeout: 120_000,
  }, async () => {
    const project = t6Project();
    const before = await evalIn(project, ['--task', 'T6', '--trials', '1']);
    expect(before.code, before.stdout + before.stderr).toBe(0);
    expect(
      JSON.parse(readReport(project, 'json')).tasks.find(
        (row: { variant: string }) => row.variant === 'baseline',
      ),
    ).toMatchObject({ n: 1, passed: 0 });

    editToPass(project);
    const { code, stdout } = await evalIn(project, ['--task', 'T6', '--trials', '1']);
    expect(code).toBe(1);
    expect(stdout).toContain('gate: FAILED');
    const report = JSON.parse(readReport(project, 'json'));
    expect(
      report.tasks.find((row: { variant: string }) => row.variant === 'baseline'),
    ).toMatchObject({ n: 0, passed: 0 });
    expect(report.gate.reasons[0]).toMatch(
      /^1 stale fixture \(re-record them\): T6 baseline trial 1/,
    );
    expect(report.staleFixtures[0].messages[0]).toMatch(
      /fixtures\/T6\/baseline\/trial-1\.json was edited after it was recorded \(suite refund-desk, task T6, variant baseline, trial 1\): its content no longer matches the contentHash/,
    );
  });

  it('replays a re-indented cassette as it was: the same content is the same hash', {
    timeout: 120_000,
  }, async () => {
    const project = t6Project();
    const file = join(project, 'fixtures/T6/baseline/trial-1.json');
    writeFileSync(file, JSON.stringify(JSON.parse(readFileSync(file, 'utf8'))));
    const { code, stdout } = await evalIn(project, ['--task', 'T6', '--trials', '1']);
    expect(code, stdout).toBe(0);
    expect(
      JSON.parse(readReport(project, 'json')).tasks.find(
        (row: { variant: string }) => row.variant === 'baseline',
      ),
    ).toMatchObject({ n: 1, passed: 0 });
  });
});
