import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join, posix, relative } from 'node:path';
import { ConfigError, errorMessage } from '../../core/errors.js';
import { readRegularFile, whyUnreadable } from '../../core/regular-file.js';
import type { HistoryPoint, SkippedReport } from '../report/history-model.js';
import { parseReport } from '../report/report-schema.js';
import { git, objectsAt } from './git.js';

/** The readable reports, oldest first, and the versions that could not be read. */
export interface HistoryReports {
  points: HistoryPoint[];
  skipped: SkippedReport[];
}

export interface GitHistoryOptions {
  /** Where to run git: the project folder (paths below are relative to it). */
  projectDir: string;
  /** The report file over git, e.g. `reports/reference.json`. */
  file: string;
  /** The harness: these paths (folders or files); default everything but reports/ and fixtures/. */
  harness?: readonly string[];
  /** The most recent commits read (default 200). */
  limit?: number;
}

/** The commits that changed `file` (following renames), newest first, with its path at each. */
async function commitsOf(projectDir: string, file: string, limit: number) {
  // A repository with no commit yet has no log: the file was never committed.
  const out = await git(projectDir, [
    'log',
    '--follow',
    `--max-count=${limit}`,
    '--format=%x01%H%x00%aI%x00%s',
    '--name-only',
    '--',
    file,
  ]).catch(() => '');
  return out
    .split('\x01')
    .slice(1)
    .map((entry) => {
      const [head = '', ...names] = entry.split('\n');
      const [commit = '', date = '', subject = ''] = head.split('\0');
      return { commit, date, subject, path: names.find((name) => name.trim() !== '') };
    });
}

async function topOf(projectDir: string, file: string): Promise<{ top: string; prefix: string }> {
  try {
    const top = (await git(projectDir, ['rev-parse', '--show-toplevel'])).trim();
    const prefix = (await git(projectDir, ['rev-parse', '--show-prefix'])).trim();
    return { top, prefix };
  } catch {
    throw new ConfigError(
      `${projectDir} is not in a git repository: history reads ${file} over git log; run it inside the repository (clone it with its history), or give downloaded reports with --dir DIR`,
    );
  }
}

/** Which repository paths are the harness: a change to any of them is a change of the harness. */
function harnessFilter(prefix: string, file: string, harness: readonly string[] | undefined) {
  const own = posix.normalize(`${prefix}${file}`);
  const under = (path: string, folder: string) =>
    path === folder || path.startsWith(`${folder.replace(/\/+$/, '')}/`);
  return (path: string): boolean => {
    if (path === own || !path.startsWith(prefix)) return false;
    const inProject = path.slice(prefix.length);
    return harness
      ? harness.some((entry) => under(inProject, posix.normalize(entry)))
      : !under(inProject, 'reports') && !under(inProject, 'fixtures');
  };
}

/** sha256 over the harness files' git object ids at `commit`: equal hashes, equal harness. */
async function harnessHash(top: string, commit: string, keep: (path: string) => boolean) {
  const listing = await git(top, ['ls-tree', '-r', '--full-tree', '-z', commit]);
  const kept = listing.split('\0').filter((line) => {
    const path = line.slice(line.indexOf('\t') + 1);
    return line !== '' && keep(path);
  });
  return createHash('sha256').update(kept.join('\n')).digest('hex');
}

/**
 * Every committed version of `file` (git log --follow; read with git cat-file, no checkout), oldest
 * first, each with the hash of the harness at its commit. A version that is not a readable
 * report (malformed, an older schemaVersion, deleted) is skipped and named, never fatal.
 *
 * @throws ConfigError when `projectDir` is not in a git repository, or `file` was never committed.
 */
export async function historyFromGit(options: GitHistoryOptions): Promise<HistoryReports> {
  const { projectDir, file } = options;
  const { top, prefix } = await topOf(projectDir, file);
  const commits = (await commitsOf(projectDir, file, options.limit ?? 200)).reverse();
  if (commits.length === 0) {
    throw new ConfigError(
      `${file} was never committed in ${top}: commit it first (npm run eval -- --update-reference writes reports/reference.json), name another with --file, or give downloaded reports with --dir DIR`,
    );
  }
  const keep = harnessFilter(prefix, file, options.harness);
  // One git cat-file for every version: the path each commit had (root-relative).
  const texts = await objectsAt(
    top,
    commits.map(({ commit, path }) => `${commit}:${path ?? file}`),
  );
  const result: HistoryReports = { points: [], skipped: [] };
  for (const [index, { commit, date, subject, path }] of commits.entries()) {
    const label = commit.slice(0, 7);
    const text = texts[index];
    if (text === undefined) {
      result.skipped.push({ label, why: `${file} is deleted at this commit` });
      continue;
    }
    try {
      const report = parseReport(text, path ?? file);
      const harness = await harnessHash(top, commit, keep);
      result.points.push({ id: commit, label, date, subject, report, harness });
    } catch (error) {
      result.skipped.push({ label, why: errorMessage(error) });
    }
  }
  return result;
}

/**
 * The reports in `dir` and its subfolders (`*.json`, e.g. downloaded CI artifacts), oldest
 * first by generatedAt. No git: whether the harness changed between two is not known.
 *
 * @throws ConfigError when `dir` cannot be read or holds no `.json` file.
 */
export async function historyFromDir(dir: string, shown = dir): Promise<HistoryReports> {
  let names: string[];
  try {
    names = (await readdir(dir, { recursive: true })).filter((name) => name.endsWith('.json'));
  } catch (error) {
    throw new ConfigError(
      `--dir ${shown} cannot be read (${whyUnreadable(error)}): give a folder of eval reports`,
    );
  }
  if (names.length === 0) {
    throw new ConfigError(
      `--dir ${shown} holds no .json report: download each CI run's eval report (reports/latest.json) into it, one file per run`,
    );
  }
  const result: HistoryReports = { points: [], skipped: [] };
  for (const name of names.sort()) {
    const label = relative(dir, join(dir, name)).split('\\').join('/');
    try {
      const report = parseReport((await readRegularFile(join(dir, name))).toString('utf8'), label);
      result.points.push({ id: label, label, date: report.generatedAt, report });
    } catch (error) {
      result.skipped.push({ label, why: errorMessage(error) });
    }
  }
  result.points.sort((first, second) => first.date.localeCompare(second.date));
  return result;
}
