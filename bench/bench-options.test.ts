import { afterAll, describe, expect, it } from 'vitest';
import { BenchUsageError } from './bench-args.js';
import { benchOptions } from './bench-options.js';
import { BENCH_LAYOUT_FILES, createGitRepo } from './testing/git-repo.js';

const repo = createGitRepo();
const commit = repo.commit(BENCH_LAYOUT_FILES);
afterAll(() => repo.remove());

describe('benchOptions (npm run bench)', () => {
  it('defaults: 5 rounds, npm test, no baseline, no micro-benchmarks, not the viewer alone', () => {
    expect(benchOptions([], repo.dir)).toEqual({
      rounds: 5,
      projectDir: repo.dir,
      npmTest: true,
      micro: false,
      viewer: false,
      smoke: false,
    });
  });

  it('--smoke: one round and no npm test, unless --rounds says otherwise', () => {
    expect(benchOptions(['--smoke'], repo.dir)).toMatchObject({
      rounds: 1,
      npmTest: false,
      smoke: true,
    });
    expect(benchOptions(['--smoke', '--rounds', '2'], repo.dir)).toMatchObject({ rounds: 2 });
  });

  it('--baseline-ref is resolved to its commit before anything runs', () => {
    expect(
      benchOptions(
        ['--baseline-ref', commit.slice(0, 8), '--rounds', '3', '--skip-npm-test'],
        repo.dir,
      ),
    ).toEqual({
      rounds: 3,
      projectDir: repo.dir,
      npmTest: false,
      micro: false,
      viewer: false,
      smoke: false,
      baseline: { ref: commit.slice(0, 8), commit, short: commit.slice(0, 7) },
    });
    expect(benchOptions([`--baseline-ref=${commit}`], repo.dir).baseline?.commit).toBe(commit);
  });

  it('a bad --baseline-ref, or one without a value, is a usage error (exit 2)', () => {
    expect(() => benchOptions(['--baseline-ref', 'nope'], repo.dir)).toThrow(BenchUsageError);
    expect(() => benchOptions(['--baseline-ref'], repo.dir)).toThrow(
      "Option '--baseline-ref <value>' argument missing: the flags are --rounds, --project, --baseline-ref, --skip-npm-test, --micro, --viewer",
    );
    expect(() => benchOptions(['--baseline-ref', '-x'], repo.dir)).toThrow(
      "Option '--baseline-ref' argument is ambiguous (a value that starts with '-' is given as --flag=VALUE): the flags are",
    );
    expect(() => benchOptions(['--baseline-ref=-x'], repo.dir)).toThrow(
      `--baseline-ref "-x": not a git ref (it starts with '-' or holds spaces or control characters)`,
    );
  });

  it('checks the rounds before building anything', () => {
    expect(() => benchOptions(['--baseline-ref', commit, '--rounds', '0'], repo.dir)).toThrow(
      '--rounds 0: give a whole number of rounds, at least 1',
    );
  });
});
