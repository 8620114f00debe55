import { execFile, spawn } from 'node:child_process';
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

/**
 * The texts of many files at `commit` (paths relative to `projectDir`), read by one
 * `git cat-file --batch`: one process for thousands of cassettes, not two per file. A path not
 * there maps to undefined.
 */
export async function filesAt(
  projectDir: string,
  commit: string,
  paths: readonly string[],
): Promise<Map<string, string | undefined>> {
  const texts = await objectsAt(
    projectDir,
    paths.map((path) => `${commit}:./${path}`),
  );
  return new Map(paths.map((path, index) => [path, texts[index]]));
}

/**
 * The texts of many git objects (`<commit>:<path>` each, as git cat-file names them), read by
 * one `git cat-file --batch`, in order; undefined for one that is not there.
 */
export function objectsAt(
  projectDir: string,
  names: readonly string[],
): Promise<Array<string | undefined>> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['cat-file', '--batch'], { cwd: projectDir });
    const chunks: Buffer[] = [];
    let size = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT * 4) child.kill();
      else chunks.push(chunk);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`git cat-file --batch exited with ${code}`));
      resolve(parseBatch(Buffer.concat(chunks), names.length));
    });
    child.stdin.end(names.map((name) => `${name}\n`).join(''));
  });
}

/** `<oid> blob <size>\n<bytes>\n` or `<name> missing\n`, once per name, in order. */
function parseBatch(out: Buffer, count: number): Array<string | undefined> {
  const texts: Array<string | undefined> = [];
  let at = 0;
  for (let index = 0; index < count; index += 1) {
    const end = out.indexOf(0x0a, at);
    const header = out.toString('utf8', at, end);
    const size = /^[0-9a-f]+ blob (\d+)$/.exec(header)?.[1];
    if (size === undefined) {
      texts.push(undefined);
      at = end + 1;
      continue;
    }
    texts.push(out.toString('utf8', end + 1, end + 1 + Number(size)));
    at = end + 1 + Number(size) + 1;
  }
  return texts;
}

/** How a path changed since a commit. */
export type PathChange = 'added' | 'removed' | 'modified';

/**
 * The paths under `pathspec` the working tree changed since `commit` (tracked, and untracked
 * ones git does not ignore, as added), those `keep` accepts.
 */
export async function changedPaths(
  projectDir: string,
  commit: string,
  pathspec: string,
  keep: (path: string) => boolean = () => true,
): Promise<Map<string, PathChange>> {
  const listed = await git(projectDir, [
    'diff',
    '--relative',
    '--name-status',
    '--no-renames',
    '-z',
    commit,
    '--',
    pathspec,
  ]);
  const untracked = await git(projectDir, [
    'ls-files',
    '--others',
    '--exclude-standard',
    '-z',
    '--',
    pathspec,
  ]);
  const paths = new Map<string, PathChange>();
  const fields = listed.split('\0');
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const [code, path] = [fields[index]!, fields[index + 1]!];
    if (!keep(path)) continue;
    paths.set(path, code.startsWith('A') ? 'added' : code.startsWith('D') ? 'removed' : 'modified');
  }
  for (const path of untracked.split('\0')) if (path && keep(path)) paths.set(path, 'added');
  return paths;
}
