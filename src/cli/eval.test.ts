import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { captureCli } from './cli-testing.js';
import { runEvalCli } from './eval.js';

// Nothing in this file may start the trials: createVitest is what would run them.
const createVitest = vi.hoisted(() => vi.fn());
vi.mock('vitest/node', async (original) => ({
  ...(await original<typeof import('vitest/node')>()),
  createVitest,
}));

// An empty selection (--task T1 --suite debug) is covered in-process by src/eval/selection.test.ts.
describe('npm run eval: bad input is one line and exit 2', () => {
  it('names an unknown flag in one line, without the usage', async () => {
    const { code, stdout, stderr } = await captureCli(() => runEvalCli(['--bogus']));
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^eval: .*--bogus/);
  });

  it('refuses a --compare file that does not exist before any trial runs', async () => {
    const { code, stderr } = await captureCli(() =>
      runEvalCli(['--compare', 'no-such-report.json']),
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/^eval: --compare no-such-report\.json: no such file; give a report/);
    expect(createVitest).not.toHaveBeenCalled();
  });

  it('refuses a file where a selected task writes its traces, in one line, before any trial runs', async () => {
    const project = mkdtempSync(join(tmpdir(), 'eval-cli-'));
    try {
      writeFileSync(join(project, 'vitest.evals.config.ts'), 'export default {};\n');
      mkdirSync(join(project, 'runs/eval'), { recursive: true });
      writeFileSync(join(project, 'runs/eval/T2'), '');
      vi.spyOn(process, 'cwd').mockReturnValue(project);
      const { code, stdout, stderr } = await captureCli(() => runEvalCli(['--task', 'T2']));
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toBe(
        'eval: cannot write the trial traces under runs/eval/T2: it is a file, not a folder; make runs/eval/T2 a writable folder (move away what is in its way), then run again\n',
      );
      expect(createVitest).not.toHaveBeenCalled();
    } finally {
      vi.restoreAllMocks();
      rmSync(project, { recursive: true, force: true });
    }
  });
});
