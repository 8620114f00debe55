import { spawnSync } from 'node:child_process';
import { BenchUsageError } from './bench-args.js';

/** A commit whose build `npm run bench -- --baseline-ref REF` measures beside this one. */
export interface BaselineRef {
  /** As the user gave it (e.g. `1264a15`, `main~3`, a tag). */
  ref: string;
  commit: string;
  short: string;
}

/**
 * What a ref's tree must hold for the bench to build and run it: its build script
 * (package.json), the launcher that runs the CLI from dist/ (since b72beb9), the package's entries, the evals with T2's cassettes, and the
 * trial runner and eval settings the trial loop loads (in either layout: they moved in 27acba5).
 */
const LAYOUT: ReadonlyArray<readonly string[]> = [
  ['package.json'],
  ['src/cli/launch.mjs'],
  ['src/cli/dist-build.mjs'],
  ['src/index.ts'],
  ['src/reference-agents.ts'],
  ['AGENTS.md'],
  ['vitest.evals.config.ts'],
  ['evals/'],
  ['fixtures/T2/upgraded/trial-1.json'],
  ['src/eval/trial/trial-runner.ts', 'src/eval/trial-runner.ts'],
  ['src/eval/spec/settings.ts', 'src/eval/run/settings.ts', 'src/eval/settings.ts'],
];

/** The layout entries missing from a tree's file list (`a or b` where either will do). */
export function missingLayout(paths: readonly string[]): string[] {
  const has = (entry: string) =>
    entry.endsWith('/') ? paths.some((path) => path.startsWith(entry)) : paths.includes(entry);
  return LAYOUT.filter((choices) => !choices.some(has)).map((choices) => choices.join(' or '));
}

const git = (repoDir: string, args: readonly string[]) =>
  spawnSync('git', args, { cwd: repoDir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

/**
 * Check `--baseline-ref REF` before anything is built or measured: a ref of this checkout's
 * git repository that names a commit whose tree has the bench project layout and a build
 * script. Anything else is a usage error naming it and the fix.
 */
export function resolveBaselineRef(value: string, repoDir: string): BaselineRef {
  const flag = `--baseline-ref ${JSON.stringify(value)}`;
  if (value.trim() === '') {
    throw new BenchUsageError(`${flag}: give a commit, tag or branch, e.g. --baseline-ref 1264a15`);
  }
  if (value.startsWith('-') || /[\s\p{Cc}]/u.test(value)) {
    throw new BenchUsageError(
      `${flag}: not a git ref (it starts with '-' or holds spaces or control characters); give a commit, tag or branch, e.g. --baseline-ref 1264a15`,
    );
  }
  if (git(repoDir, ['rev-parse', '--git-dir']).status !== 0) {
    throw new BenchUsageError(
      `${flag}: ${repoDir} is not a git checkout, so it has no refs; run the bench from one`,
    );
  }
  const resolved = git(repoDir, ['rev-parse', '--verify', '--quiet', value]);
  if (resolved.status !== 0) {
    throw new BenchUsageError(
      `${flag}: no such commit, tag or branch in ${repoDir}; check the name (git log --oneline), or fetch it first`,
    );
  }
  const object = resolved.stdout.trim();
  const commit = git(repoDir, ['rev-parse', '--verify', '--quiet', `${object}^{commit}`]);
  if (commit.status !== 0) {
    const type = git(repoDir, ['cat-file', '-t', object]).stdout.trim() || 'object';
    throw new BenchUsageError(
      `${flag}: names a ${type}, not a commit; give a commit, tag or branch`,
    );
  }
  const sha = commit.stdout.trim();
  const tree = git(repoDir, ['ls-tree', '-r', '--name-only', sha]);
  const missing = missingLayout(tree.stdout.split('\n'));
  const ref = { ref: value, commit: sha, short: sha.slice(0, 7) };
  if (missing.length > 0) {
    throw new BenchUsageError(
      `${flag} (${ref.short}): its tree has no bench project layout (no ${missing.join(', ')}); give a commit of harness-evals from b72beb9 on (the first whose CLI runs from dist/)`,
    );
  }
  if (!hasBuildScript(git(repoDir, ['show', `${sha}:package.json`]).stdout)) {
    throw new BenchUsageError(
      `${flag} (${ref.short}): its package.json has no build script (scripts.build), so its dist/ cannot be built as it builds it; give a later commit`,
    );
  }
  return ref;
}

function hasBuildScript(text: string): boolean {
  try {
    const scripts = (JSON.parse(text) as { scripts?: Record<string, unknown> }).scripts;
    return typeof scripts?.build === 'string' && scripts.build.trim() !== '';
  } catch {
    return false;
  }
}
