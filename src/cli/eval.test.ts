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
});
