import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { missingLayout, resolveBaselineRef } from './baseline-ref.js';
import { BenchUsageError } from './bench-args.js';
import { BENCH_LAYOUT_FILES, createGitRepo } from './testing/git-repo.js';

const repo = createGitRepo();
const good = repo.commit(BENCH_LAYOUT_FILES, 'a bench project');
repo.git('tag', 'v-good');
// The trial runner and settings at the top of src/eval/, as before 27acba5.
const oldLayout = repo.commit({
  'src/eval/trial/trial-runner.ts': null,
  'src/eval/spec/settings.ts': null,
  'src/eval/trial-runner.ts': '',
  'src/eval/settings.ts': '',
});
const noFixtures = repo.commit({
  'fixtures/T2/upgraded/trial-1.json': null,
  'src/eval/settings.ts': null,
});
const noBuild = repo.commit({
  ...BENCH_LAYOUT_FILES,
  'package.json': JSON.stringify({ scripts: { test: 'vitest' } }),
});
const garbled = repo.commit({ 'package.json': '{ not json' });
afterAll(() => repo.remove());

const refused = (value: string, dir = repo.dir) => {
  try {
    resolveBaselineRef(value, dir);
  } catch (error) {
    expect(error).toBeInstanceOf(BenchUsageError);
    return (error as Error).message;
  }
  throw new Error(`--baseline-ref ${value} was accepted`);
};

describe('resolveBaselineRef', () => {
  it('resolves a sha, a short sha or a tag to the commit, and keeps what the user wrote', () => {
    expect(resolveBaselineRef(good, repo.dir)).toEqual({
      ref: good,
      commit: good,
      short: good.slice(0, 7),
    });
    expect(resolveBaselineRef(good.slice(0, 9), repo.dir).commit).toBe(good);
    expect(resolveBaselineRef('v-good', repo.dir)).toMatchObject({ ref: 'v-good', commit: good });
  });

  it('takes either layout of the trial runner and settings (they moved in 27acba5)', () => {
    expect(resolveBaselineRef(oldLayout, repo.dir).commit).toBe(oldLayout);
  });

  it('refuses an unknown ref, naming it and the repository', () => {
    expect(refused('no-such-branch')).toBe(
      `--baseline-ref "no-such-branch": no such commit, tag or branch in ${repo.dir}; check the name (git log --oneline), or fetch it first`,
    );
    expect(refused(`${good}..HEAD`)).toContain('no such commit, tag or branch');
  });

  it('refuses a tree or a blob: not a commit', () => {
    expect(refused(`${good}:src`)).toBe(
      `--baseline-ref "${good}:src": names a tree, not a commit; give a commit, tag or branch`,
    );
    const blob = repo.git('rev-parse', `${good}:package.json`);
    expect(refused(blob)).toBe(
      `--baseline-ref "${blob}": names a blob, not a commit; give a commit, tag or branch`,
    );
  });

  it('refuses a commit whose tree has no bench project layout, naming what is missing', () => {
    expect(refused(noFixtures)).toBe(
      `--baseline-ref "${noFixtures}" (${noFixtures.slice(0, 7)}): its tree has no bench project layout (no fixtures/T2/upgraded/trial-1.json, src/eval/spec/settings.ts or src/eval/run/settings.ts or src/eval/settings.ts); give a commit of harness-evals from b72beb9 on (the first whose CLI runs from dist/)`,
    );
  });

  it('refuses a commit without a build script, or whose package.json is not JSON', () => {
    expect(refused(noBuild)).toContain('its package.json has no build script (scripts.build)');
    expect(refused(garbled)).toContain('its package.json has no build script');
  });

  it("refuses an empty value, one that starts with '-' (git would read an option) or holds spaces", () => {
    expect(refused('')).toBe(
      '--baseline-ref "": give a commit, tag or branch, e.g. --baseline-ref 1264a15',
    );
    for (const value of ['--output=/tmp/x', '-h', 'main extra', 'main\nHEAD', ' ']) {
      expect(refused(value)).toMatch(/not a git ref|give a commit/);
    }
  });

  it('refuses any ref outside a git checkout', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-not-git-'));
    try {
      expect(refused('HEAD', dir)).toBe(
        `--baseline-ref "HEAD": ${dir} is not a git checkout, so it has no refs; run the bench from one`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('missingLayout', () => {
  it('lists each missing entry once, alternatives joined by "or"; a folder needs a file in it', () => {
    expect(missingLayout(Object.keys(BENCH_LAYOUT_FILES))).toEqual([]);
    const without = Object.keys(BENCH_LAYOUT_FILES).filter(
      (path) => !path.startsWith('evals/') && path !== 'src/eval/trial/trial-runner.ts',
    );
    expect(missingLayout([...without, 'evals'])).toEqual([
      'evals/',
      'src/eval/trial/trial-runner.ts or src/eval/trial-runner.ts',
    ]);
  });
});
