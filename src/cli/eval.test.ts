import { describe, expect, it } from 'vitest';
import { captureCli } from './cli-testing.js';
import { runEvalCli } from './eval.js';

// An empty selection (--task T1 --suite debug) is covered in-process by src/eval/selection.test.ts.
describe('npm run eval: bad input is one line and exit 2', () => {
  it('names an unknown flag in one line, without the usage', async () => {
    const { code, stdout, stderr } = await captureCli(() => runEvalCli(['--bogus']));
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^eval: .*--bogus/);
  });
});
