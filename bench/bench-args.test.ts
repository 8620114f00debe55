import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BenchUsageError,
  parseBenchArgs,
  projectOf,
  roundsOf,
  runBenchScript,
} from './bench-args.js';

describe('bench arguments', () => {
  it('--rounds takes a whole number of at least 1, and names a bad one', () => {
    expect(roundsOf(undefined, 5)).toBe(5);
    expect(roundsOf('3', 5)).toBe(3);
    for (const bad of ['0', '-2', '1.5', 'abc', '', ' ', 'Infinity', '1e400']) {
      expect(() => roundsOf(bad, 5), bad).toThrow(BenchUsageError);
      expect(() => roundsOf(bad, 5), bad).toThrow(
        `--rounds ${bad}: give a whole number of rounds, at least 1`,
      );
    }
  });

  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('--project must be an installed checkout: what is missing is named before any run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-project-'));
    dirs.push(dir);
    expect(() => projectOf(dir, '/default')).toThrow(
      `--project ${dir}: not a harness-evals checkout with its dependencies installed (no src/cli/launch.mjs, evals, fixtures, node_modules/vitest); give the root of one, after npm ci`,
    );
    mkdirSync(join(dir, 'src/cli'), { recursive: true });
    writeFileSync(join(dir, 'src/cli/launch.mjs'), '');
    for (const name of ['evals', 'fixtures', 'node_modules/vitest']) {
      mkdirSync(join(dir, name), { recursive: true });
    }
    expect(projectOf(dir, '/default')).toBe(dir);
    expect(projectOf(undefined, '/default')).toBe('/default');
  });

  it('an unknown flag or a flag without its value is a usage error listing the flags', () => {
    const options = { rounds: { type: 'string' }, micro: { type: 'boolean' } } as const;
    expect(() => parseBenchArgs(['--bogus'], options)).toThrow(
      "Unknown option '--bogus': the flags are --rounds, --micro",
    );
    expect(() => parseBenchArgs(['--rounds'], options)).toThrow(BenchUsageError);
    expect(parseBenchArgs(['--rounds', '2', '--micro'], options).values).toEqual({
      rounds: '2',
      micro: true,
    });
  });
});

describe('runBenchScript', () => {
  afterEach(() => {
    process.exitCode = undefined;
    vi.restoreAllMocks();
  });

  it('a usage error is one line and exit 2; a failed measurement its message and exit 1', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    await runBenchScript('bench', async () => {
      throw new BenchUsageError('--rounds 0: give a whole number of rounds, at least 1');
    });
    expect(process.exitCode).toBe(2);
    expect(error).toHaveBeenLastCalledWith(
      'bench: --rounds 0: give a whole number of rounds, at least 1',
    );
    await runBenchScript('bench', async () => {
      throw new Error('eval --trials 1 exited with 1:\n(output)');
    });
    expect(process.exitCode).toBe(1);
    expect(error).toHaveBeenLastCalledWith('bench: eval --trials 1 exited with 1:\n(output)');
    await runBenchScript('bench', async () => 0);
    expect(process.exitCode).toBe(0);
  });
});
