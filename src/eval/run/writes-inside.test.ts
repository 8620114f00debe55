import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runRecordCli } from '../../cli/record.js';
import { captureCli } from '../../cli/testing/cli.js';
import {
  evalIn,
  projectWith,
  removeEvalProjects,
  writeEval,
} from '../testing/hostile-eval-project.js';

// Symlinked runs/, runs/eval/<task>, reports/ and fixtures/ folders led an eval's or a
// recording's writes outside the project. Each is now refused before anything is written there.

const elsewhere: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  removeEvalProjects();
  for (const dir of elsewhere.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** An empty folder outside the project, for a symlink to lead to. */
function outside(): string {
  const dir = mkdtempSync(join(tmpdir(), 'writes-elsewhere-'));
  elsewhere.push(dir);
  return dir;
}

const t2Project = () => projectWith(writeEval(''));

describe('writes stay inside the project', () => {
  it.each([
    ['runs', 'runs/eval', 'a trial trace'],
    ['reports', 'reports', 'writing the reports'],
  ])(
    'eval refuses a symlinked %s that leads outside, before any trial runs',
    {
      timeout: 120_000,
    },
    async (link, shown, doing) => {
      const project = t2Project();
      const target = outside();
      rmSync(join(project, link), { recursive: true, force: true });
      symlinkSync(target, join(project, link));
      const { code, stdout, stderr } = await evalIn(project, ['--task', 'T2', '--trials', '1']);
      expect(code, stdout + stderr).toBe(2);
      expect(stderr).toMatch(
        new RegExp(
          `^eval: ${shown} leads outside the project \\(to .*writes-elsewhere-.*\\), so ${doing} would write there`,
        ),
      );
      expect(readdirSync(target)).toEqual([]);
    },
  );

  it('eval refuses a task folder under runs/eval that a symlink leads outside', {
    timeout: 120_000,
  }, async () => {
    const project = t2Project();
    const target = outside();
    mkdirSync(join(project, 'runs/eval'), { recursive: true });
    symlinkSync(target, join(project, 'runs/eval/T2'));
    const { code, stderr } = await evalIn(project, ['--task', 'T2', '--trials', '1']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^eval: runs\/eval\/T2 leads outside the project/);
    expect(readdirSync(target)).toEqual([]);
  });

  it('record refuses a symlinked fixtures/ or fixtures/<task> that leads outside', {
    timeout: 120_000,
  }, async () => {
    const project = t2Project();
    const target = outside();
    // The test project links the repository's fixtures in: a link out of the project, like any.
    unlinkSync(join(project, 'fixtures'));
    symlinkSync(target, join(project, 'fixtures'));
    vi.spyOn(process, 'cwd').mockReturnValue(project);
    vi.stubEnv('CI', '');
    vi.stubEnv('GITHUB_STEP_SUMMARY', '');
    const args = ['--task', 'T2', '--variant', 'upgraded', '--trial', '1', '--simulated'];
    const whole = await captureCli(() => runRecordCli(args));
    expect(whole.code, whole.stdout + whole.stderr).toBe(2);
    expect(whole.stderr).toMatch(
      /^record: fixtures leads outside the project .*so recording would write there/,
    );
    expect(readdirSync(target)).toEqual([]);

    unlinkSync(join(project, 'fixtures'));
    mkdirSync(join(project, 'fixtures'));
    symlinkSync(target, join(project, 'fixtures/T2'));
    // A link under fixtures/ is refused before any trial runs (one walker for record, verify, eval).
    const task = await captureCli(() => runRecordCli(args));
    expect(task.code, task.stdout + task.stderr).toBe(2);
    expect(task.stderr).toMatch(/^record: fixtures\/T2 is a symbolic link: /);
    expect(readdirSync(target)).toEqual([]);
  });
});
