import { execFile } from 'node:child_process';
import { ConfigError } from '../../core/errors.js';

/** The most a git command may print here: a reference report or a cassette is far smaller. */
const MAX_OUTPUT = 64 * 1024 * 1024;

/** Run git in `cwd`; its stdout, or the error git gave. */
export function git(cwd: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...args],
      { cwd, maxBuffer: MAX_OUTPUT, timeout: 120_000, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error) reject(Object.assign(error, { stderr: String(stderr).trim() }));
        else resolve(stdout);
      },
    );
  });
}

/** A ref as git takes it: a branch, a tag, a commit, `origin/main`, `HEAD~1`. Never an option. */
const REF = /^[A-Za-z0-9][A-Za-z0-9._/@{}^~-]{0,200}$/;

/**
 * The commit `ref` names in the repository that holds `projectDir`, or a ConfigError naming the
 * ref and the fix (not a ref, not in this clone: fetch it).
 */
export async function resolveCommit(
  projectDir: string,
  ref: string,
  flag: string,
): Promise<string> {
  if (!REF.test(ref) || ref.includes('..')) {
    throw new ConfigError(
      `${flag} ${JSON.stringify(ref.slice(0, 80))} is not a git ref: give a branch, a tag or a commit (e.g. ${flag} origin/main)`,
    );
  }
  try {
    const commit = (
      await git(projectDir, [
        'rev-parse',
        '--verify',
        '--quiet',
        '--end-of-options',
        `${ref}^{commit}`,
      ])
    ).trim();
    if (/^[0-9a-f]{40,64}$/.test(commit)) return commit;
  } catch {
    // Below: not a repository, or no such commit here.
  }
  throw new ConfigError(
    `${flag} ${ref}: no such commit in the git repository of ${projectDir} (not a git repository, or not fetched: in CI, check out with fetch-depth: 0, or git fetch origin ${ref})`,
  );
}

/** A file's text at `commit`, its path relative to `projectDir`; undefined when it is not there. */
export async function fileAt(
  projectDir: string,
  commit: string,
  path: string,
): Promise<string | undefined> {
  try {
    await git(projectDir, ['cat-file', '-e', `${commit}:./${path}`]);
  } catch {
    return undefined;
  }
  return git(projectDir, ['show', `${commit}:./${path}`]);
}
