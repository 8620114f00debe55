import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runEvalCli } from './eval.js';
import { captureCli } from './testing/cli.js';

// Nothing in this file may start the trials: createVitest is what would run them.
const createVitest = vi.hoisted(() => vi.fn());
vi.mock('vitest/node', async (original) => ({
  ...(await original<typeof import('vitest/node')>()),
  createVitest,
}));

// An empty selection (--task T1 --suite debug) is covered in-process by src/eval/spec/selection.test.ts.
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

  // Each used to be taken silently: the last of two values, or an empty list as no selection
  // (every task ran for --task "$UNSET"), or a name no task can have (found out after every
  // eval file had loaded).
  it.each([
    [['--trials', '3', '--trials', '5'], "--trials is given twice ('3', then '5'): give it once"],
    [
      ['--task', 'T1', '--task=T2'],
      "--task is given twice ('T1', then 'T2'): give it once, e.g. --task T1,T2",
    ],
    [
      ['--task', ''],
      "--task names nothing (got ''): give task ids, e.g. --task T1,T4, or leave --task out to select every one",
    ],
    [
      ['--task=', '--trials', '1'],
      "--task names nothing (got ''): give task ids, e.g. --task T1,T4, or leave --task out to select every one",
    ],
    [
      ['--variant', ' , '],
      "--variant names nothing (got ' , '): give variant names, e.g. --variant upgraded, or leave --variant out to select every one",
    ],
    [
      ['--suite', ''],
      "--suite names nothing (got ''): give suite names, e.g. --suite refund-desk, or leave --suite out to select every one",
    ],
    [
      ['--task', 'T1,../x'],
      "--task takes task ids (letters, digits, '_' or '-'; several as T1,T4), got '../x'",
    ],
    [
      ['--variant', '..'],
      "--variant takes variant names (letters, digits, '_', '-' or '.'; several as baseline,upgraded), got '..'",
    ],
    [
      ['--compare', ''],
      "--compare takes a report file (e.g. --compare reports/reference.json), got ''",
    ],
    [
      ['--merge', ''],
      "--merge takes a folder of shard results (e.g. --merge reports/shards), got ''",
    ],
  ])('refuses %j in one line, before anything runs', async (args, message) => {
    const project = mkdtempSync(join(tmpdir(), 'eval-cli-'));
    try {
      vi.spyOn(process, 'cwd').mockReturnValue(project);
      const { code, stdout, stderr } = await captureCli(() => runEvalCli(args));
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toBe(`eval: ${message}\n`);
      expect(createVitest).not.toHaveBeenCalled();
    } finally {
      vi.restoreAllMocks();
      rmSync(project, { recursive: true, force: true });
    }
  });

  // Read in the worker by every adapter agent's trial: each trial errored on it, one by one.
  it.each(['0x10', '1e3', 'abc'])(
    'refuses HARNESS_MODEL_TIMEOUT=%j in one line, before any trial runs',
    async (value) => {
      const project = mkdtempSync(join(tmpdir(), 'eval-cli-'));
      try {
        writeFileSync(join(project, 'vitest.evals.config.ts'), 'export default {};\n');
        vi.spyOn(process, 'cwd').mockReturnValue(project);
        vi.stubEnv('HARNESS_MODEL_TIMEOUT', value);
        const { code, stdout, stderr } = await captureCli(() => runEvalCli(['--trials', '1']));
        expect(code).toBe(2);
        expect(stdout).toBe('');
        expect(stderr).toBe(
          `eval: HARNESS_MODEL_TIMEOUT takes seconds above 0 and below 2147483 (e.g. 600, the default, or 0.5), got '${value}'\n`,
        );
        expect(createVitest).not.toHaveBeenCalled();
      } finally {
        vi.restoreAllMocks();
        vi.unstubAllEnvs();
        rmSync(project, { recursive: true, force: true });
      }
    },
  );

  it('says in one line that a flag is missing its value', async () => {
    const { code, stderr } = await captureCli(() => runEvalCli(['--task', '--trials', '3']));
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^eval: Option '--task' argument is ambiguous\. [^\n]*'--task=-XYZ'\.\n$/,
    );
  });
});
