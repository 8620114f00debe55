import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runEvalCli } from './eval.js';
import { runRecordCli } from './record.js';
import { captureCli } from './testing/cli.js';

// Nothing in this file may start the trials: createVitest is what would run them.
const createVitest = vi.hoisted(() => vi.fn());
vi.mock('vitest/node', async (original) => ({
  ...(await original<typeof import('vitest/node')>()),
  createVitest,
}));

let project: string;
beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'judge-flags-'));
  vi.spyOn(process, 'cwd').mockReturnValue(project);
  vi.stubEnv('CI', '');
  for (const name of ['HARNESS_JUDGE_API_KEY', 'ANTHROPIC_API_KEY', 'OPENAI_API_KEY']) {
    vi.stubEnv(name, '');
  }
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  rmSync(project, { recursive: true, force: true });
});

const SAMPLES = 'takes a whole number from 1 to 100, got';

describe('npm run eval: judge flags, bad input is one line and exit 2', () => {
  it.each([
    [['--judge-samples', '0'], `--judge-samples ${SAMPLES} '0'`],
    [['--judge-samples=-1'], `--judge-samples ${SAMPLES} '-1'`],
    [['--judge-samples', '1000000'], `--judge-samples ${SAMPLES} '1000000'`],
    [['--judge-samples', '10^6'], `--judge-samples ${SAMPLES} '10^6'`],
    [['--judge-samples', '2.5'], `--judge-samples ${SAMPLES} '2.5'`],
    [
      ['--judge-model', ''],
      "--judge-model takes judge model ids, e.g. --judge-model claude-sonnet-5, got ''",
    ],
    [['--judge-model', 'openai:'], "--judge-model names the judge model 'openai:'"],
    [['--judge-model', 'a,a'], '--judge-model names the judge model a twice'],
    [
      ['--judge-model', 'a', '--judge-model', 'b'],
      "--judge-model is given twice ('a', then 'b'): give it once",
    ],
    [
      ['--record-judge'],
      '--record-judge goes with --rescore: npm run eval -- --rescore --record-judge',
    ],
    [['--simulated'], '--simulated goes with --rescore (the judges are asked again, offline)'],
    [
      ['--rescore'],
      '--rescore asks the judges live: set HARNESS_JUDGE_API_KEY (or ANTHROPIC_API_KEY / OPENAI_API_KEY), or judge offline with --simulated',
    ],
    [
      ['--merge', 'reports/shards', '--rescore'],
      '--merge takes the trials and the selection from the shards: drop --rescore',
    ],
  ])('refuses %j', async (args, message) => {
    const { code, stdout, stderr } = await captureCli(() => runEvalCli(args));
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain(`eval: ${message}`);
    expect(createVitest).not.toHaveBeenCalled();
  });

  it('refuses a negative count however it is written', async () => {
    const { code, stderr } = await captureCli(() => runEvalCli(['--judge-samples', '-1']));
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(createVitest).not.toHaveBeenCalled();
  });

  it('refuses --record-judge when CI is set: CI replays the committed judge calls', async () => {
    vi.stubEnv('CI', 'true');
    const { code, stderr } = await captureCli(() =>
      runEvalCli(['--rescore', '--simulated', '--record-judge']),
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/^eval: --record-judge is refused when CI is set/);
  });
});

describe('npm run record: judge flags, bad input is one line and exit 2', () => {
  it.each([
    [['--judge-samples', '0'], `--judge-samples ${SAMPLES} '0'`],
    [['--judge-samples', '1000000'], `--judge-samples ${SAMPLES} '1000000'`],
    [
      ['--judge-only', '--missing-only'],
      '--judge-only records the judge of every selected trial: drop --missing-only',
    ],
    [
      ['--verify', '--judge-only'],
      '--verify checks the cassettes already recorded: drop --simulated, --judge-only',
    ],
    [['--judge-model', 'anthropic:'], "--judge-model names the judge model 'anthropic:'"],
  ])('refuses %j', async (args, message) => {
    const { code, stdout, stderr } = await captureCli(() => runRecordCli([...args, '--simulated']));
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([expect.stringContaining(`record: ${message}`)]);
    expect(createVitest).not.toHaveBeenCalled();
  });
});
