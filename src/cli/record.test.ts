import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseModelTimeout } from '../model-api/call-deadline.js';
import { runRecordCli } from './record.js';
import { captureCli } from './testing/cli.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

/** `npm run record` in-process, with a live-API environment around it. */
function recordWith(baseUrl: string, args: string[] = ['--task', 'T2']) {
  vi.stubEnv('CI', '');
  vi.stubEnv('ANTHROPIC_API_KEY', 'test-key-not-secret');
  vi.stubEnv('ANTHROPIC_BASE_URL', baseUrl);
  return captureCli(() => runRecordCli(args));
}

describe('npm run record: bad input is one line and exit 2', () => {
  it.each([
    ['not a url', "ANTHROPIC_BASE_URL 'not a url' is not an http(s) URL"],
    ['127.0.0.1:8787', "ANTHROPIC_BASE_URL '127.0.0.1:8787' is not an http(s) URL"],
    ['ftp://example.test', "ANTHROPIC_BASE_URL 'ftp://example.test' is not an http(s) URL"],
  ])('refuses ANTHROPIC_BASE_URL=%j before recording anything', async (value, problem) => {
    const { code, stdout, stderr } = await recordWith(value);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([
      `record: ${problem}: set it to e.g. http://127.0.0.1:8787, or unset it to use the live API`,
    ]);
  });

  it('does not echo a base URL that looks like a key', async () => {
    const key = `sk-ant-api03-${'x'.repeat(24)}`;
    const { code, stderr } = await recordWith(key);
    expect(code).toBe(2);
    expect(stderr).not.toContain(key);
    expect(stderr).toContain('ANTHROPIC_BASE_URL (a value that looks like a key) is not');
  });

  // It used to be read per trial: every trial opened its upstream, then failed the same way.
  it.each(['abc', '0', '-5'])(
    'refuses HARNESS_MODEL_TIMEOUT=%j before recording anything',
    async (value) => {
      vi.stubEnv('HARNESS_MODEL_TIMEOUT', value);
      const { code, stdout, stderr } = await recordWith('http://127.0.0.1:1');
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr.trim().split('\n')).toEqual([
        `record: HARNESS_MODEL_TIMEOUT takes seconds above 0 and below 2147483 (e.g. 600, the default, or 0.5), got '${value}'`,
      ]);
    },
  );

  it.each(['abc', '0', '1e9'])(
    'refuses --model-timeout %j before recording anything',
    async (value) => {
      const { code, stdout, stderr } = await recordWith('http://127.0.0.1:1', [
        '--task',
        'T2',
        '--model-timeout',
        value,
      ]);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr.trim().split('\n')).toEqual([
        `record: --model-timeout takes seconds above 0 and below 2147483 (e.g. 600, the default, or 0.5), got '${value}'`,
      ]);
    },
  );

  // The worker read String(1e-7 s) back as '1e-7', which the decimal-only rule refuses.
  it('passes a tiny --model-timeout to the trials in a form they read back', async () => {
    const project = mkdtempSync(join(tmpdir(), 'record-cli-'));
    try {
      vi.spyOn(process, 'cwd').mockReturnValue(project);
      vi.stubEnv('HARNESS_MODEL_TIMEOUT', undefined);
      const { code, stderr } = await recordWith('http://127.0.0.1:1', [
        '--task',
        'T2',
        '--model-timeout',
        '0.0000001',
      ]);
      // The empty folder stops the run once the deadline is set, before any trial.
      expect(code).toBe(2);
      expect(stderr).toMatch(/^record: no vitest\.evals\.config\.ts in /);
      expect(parseModelTimeout('x', process.env.HARNESS_MODEL_TIMEOUT ?? '')).toBe(
        parseModelTimeout('x', '0.0000001'),
      );
    } finally {
      vi.restoreAllMocks();
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('refuses --model-timeout with --verify, which calls no model', async () => {
    const { code, stderr } = await recordWith('http://127.0.0.1:1', [
      '--verify',
      '--model-timeout',
      '5',
    ]);
    expect(code).toBe(2);
    expect(stderr.trim()).toBe(
      'record: --verify checks the cassettes already recorded: drop --model-timeout',
    );
  });

  it('names an unknown flag in one line', async () => {
    const { code, stderr } = await recordWith('http://127.0.0.1:1', ['--bogus']);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^record: .*--bogus/);
  });

  // Each used to be taken: the last of two values, a trial checked twice ("2 cassettes
  // checked" for one), an empty model id (the default model, whatever ANTHROPIC_MODEL says),
  // a hexadecimal or exponent deadline (0x10 was 16 s). In an empty folder, so that nothing
  // can record if one is let through.
  it.each([
    [['--trials', '2', '--trials', '3'], "--trials is given twice ('2', then '3'): give it once"],
    [
      ['--task', 'T2', '--task', 'T3'],
      "--task is given twice ('T2', then 'T3'): give it once, e.g. --task T2,T3",
    ],
    [
      ['--task', ''],
      "--task names nothing (got ''): give task ids, e.g. --task T1,T4, or leave --task out to select every one",
    ],
    [
      ['--verify', '--variant', '../x'],
      "--variant takes variant names (letters, digits, '_', '-' or '.'; several as baseline,upgraded), got '../x'",
    ],
    [['--trial', '2,2'], '--trial lists trial 2 twice: list each trial once'],
    [['--verify', '--trial', '1,2,1'], '--trial lists trial 1 twice: list each trial once'],
    [
      ['--model', ''],
      "--model takes a model id or SUITE=ID (e.g. --model gpt-4.1-mini or --model refund-desk=claude-opus-5), got ''",
    ],
    [
      ['--model', 'a', '--model', 'b'],
      "--model names two models for every agent ('a', 'b'): give one, and SUITE=ID for the others",
    ],
    [['--model', 'weather=x,weather=y'], '--model names suite weather twice'],
    [
      ['--model', '=gpt-x'],
      "--model takes a model id or SUITE=ID (e.g. --model gpt-4.1-mini or --model refund-desk=claude-opus-5), got '=gpt-x'",
    ],
    ...['0x10', '1e3', '١'].map((value) => [
      ['--model-timeout', value],
      `--model-timeout takes seconds above 0 and below 2147483 (e.g. 600, the default, or 0.5), got '${value}'`,
    ]),
  ])('refuses %j in one line, before recording anything', async (args, message) => {
    const project = mkdtempSync(join(tmpdir(), 'record-cli-'));
    try {
      vi.spyOn(process, 'cwd').mockReturnValue(project);
      const { code, stdout, stderr } = await recordWith('http://127.0.0.1:1', args as string[]);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toBe(`record: ${message}\n`);
    } finally {
      vi.restoreAllMocks();
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('says in one line that a flag is missing its value', async () => {
    const { code, stderr } = await recordWith('http://127.0.0.1:1', ['--task', '--simulated']);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^record: Option '--task' argument is ambiguous\. [^\n\\]*'--task=-XYZ'\.\n$/,
    );
  });
});
