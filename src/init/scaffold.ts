import type { Stats } from 'node:fs';
import { chmod, lstat, mkdir, readdir, readFile, readlink, realpath, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../core/atomic-write.js';
import { ConfigError } from '../core/errors.js';
import { outsideProblem } from '../core/inside-folder.js';
import { readRegularFile } from '../core/regular-file.js';
import { setScriptsInText } from './package-json-text.js';

/** The init templates, shipped with the package next to dist/ (`templates/init`). */
export const TEMPLATE_DIR = fileURLToPath(new URL('../../templates/init', import.meta.url));

/** Template files whose name in the project differs (npm would not ship them as dotfiles). */
const RENAMED: Record<string, string> = {
  gitignore: '.gitignore',
  'github/workflows/harness-evals.yml': '.github/workflows/harness-evals.yml',
};

/** npm's own placeholder from `npm init -y`: not a test script anyone wrote. */
const NPM_PLACEHOLDER_TEST = 'echo "Error: no test specified" && exit 1';

export const INIT_SCRIPTS = {
  eval: 'harness-evals eval',
  record: 'harness-evals record',
  view: 'harness-evals view',
  test: 'harness-evals eval',
} as const;

/** The example agent and task: brought in once, never again into a project that has evals of its own. */
const EXAMPLE_FILES = [
  'evals/helpdesk.agent.ts',
  'evals/helpdesk.model.ts',
  'evals/h1-ticket-status.eval.ts',
  'evals/rubrics/clear-status.md',
];

export interface ScaffoldResult {
  created: string[];
  /** Files (and package.json scripts) that existed and were left as they were. */
  leftAlone: string[];
  /** Existing files init added lines to (.gitignore: what a run writes). */
  updated: string[];
  /** The example's files, not brought back into a project that has its own evals. */
  skipped: string[];
}

/**
 * Scaffold harness-evals into a project: evals/ with an example agent, its model script and
 * one task, reports/, AGENTS.md, a vitest config for evals, a GitHub workflow and the
 * package.json scripts. Never overwrites: an existing file or script is left alone and listed.
 * Every precondition is checked before anything is written: a refused init changes nothing.
 */
export async function scaffold(projectDir: string): Promise<ScaffoldResult> {
  const result: ScaffoldResult = { created: [], leftAlone: [], updated: [], skipped: [] };
  const packageJson = await planPackageJson(projectDir, result);
  const files: Array<{ template: string; target: string }> = [];
  const ownEvals = await hasOwnEvals(projectDir);
  let gitignore: { file: string; text: string } | undefined;
  for (const file of await listFiles(TEMPLATE_DIR)) {
    const target = RENAMED[file] ?? file;
    await refuseBlockedFolders(projectDir, target);
    const existing = await lstat(join(projectDir, target)).catch(() => undefined);
    if (existing && target === '.gitignore') {
      gitignore = await planGitignore(projectDir, file, result);
      if (!gitignore) result.leftAlone.push(target);
    } else if (existing)
      result.leftAlone.push(await describeExisting(projectDir, target, existing));
    else if (ownEvals && EXAMPLE_FILES.includes(target)) result.skipped.push(target);
    else files.push({ template: file, target });
  }
  const dirs: string[] = [];
  for (const dir of ['reports', 'fixtures']) {
    await refuseBlockedFolders(projectDir, `${dir}/`);
    if (!(await lstat(join(projectDir, dir)).catch(() => undefined))) dirs.push(dir);
  }

  for (const { template, target } of files) {
    await writeFileAtomic(join(projectDir, target), await readFile(join(TEMPLATE_DIR, template)));
    result.created.push(target);
  }
  for (const dir of dirs) {
    await mkdir(join(projectDir, dir), { recursive: true });
    result.created.push(`${dir}/`);
  }
  if (gitignore) await writeFileAtomic(gitignore.file, gitignore.text);
  if (packageJson) {
    await writeFileAtomic(packageJson.file, packageJson.text);
    // A new file gets the default mode; the user's file keeps its own.
    await chmod(packageJson.file, packageJson.mode);
  }
  return result;
}

/**
 * Whether the project has evals of its own: an eval file in evals/ other than the example's,
 * or the example gone from a project init set up before (its vitest config is there). Then
 * the example is not brought back: a team that deleted it meant it.
 */
async function hasOwnEvals(projectDir: string): Promise<boolean> {
  const entries = await readdir(join(projectDir, 'evals')).catch(() => [] as string[]);
  const examples = new Set(EXAMPLE_FILES.map((file) => file.slice('evals/'.length)));
  if (entries.some((name) => /\.eval\.[cm]?[jt]s$/.test(name) && !examples.has(name))) return true;
  const setUp = await lstat(join(projectDir, 'vitest.evals.config.mts')).catch(() => undefined);
  const exampleThere = entries.some((name) => examples.has(name));
  return setUp !== undefined && !exampleThere;
}

/**
 * An existing .gitignore gets the lines of the template it lacks (what a run writes: reports,
 * traces, packed tarballs), at its end under a comment; undefined when it has them all. A
 * .gitignore that is not a regular file is left alone.
 */
async function planGitignore(
  projectDir: string,
  template: string,
  result: ScaffoldResult,
): Promise<{ file: string; text: string } | undefined> {
  const file = join(projectDir, '.gitignore');
  const info = await lstat(file).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  const text = (await readRegularFile(file)).toString('utf8');
  const present = new Set(text.split(/\r?\n/).map((line) => line.trim()));
  const wanted = (await readFile(join(TEMPLATE_DIR, template), 'utf8')).split('\n').filter(Boolean);
  const missing = wanted.filter((line) => !present.has(line) && !present.has(`/${line}`));
  if (missing.length === 0) return undefined;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const start = text === '' || text.endsWith('\n') ? '' : eol;
  result.updated.push(`.gitignore (added ${missing.join(', ')})`);
  return { file, text: `${text}${start}# harness-evals${eol}${missing.join(eol)}${eol}` };
}

/**
 * Refuses when a folder on the way to `target` (`evals/h1.eval.ts`, `reports/`) is something
 * else: a file, a dangling symlink. A missing folder is fine; init creates it.
 */
async function refuseBlockedFolders(projectDir: string, target: string): Promise<void> {
  const parts = target.split('/').filter((part) => part !== '');
  const folders = target.endsWith('/') ? parts : parts.slice(0, -1);
  for (let count = 1; count <= folders.length; count++) {
    const folder = folders.slice(0, count).join('/');
    const path = join(projectDir, folder);
    const info = await lstat(path).catch(() => undefined);
    if (!info) return;
    const followed = info.isSymbolicLink() ? await stat(path).catch(() => undefined) : info;
    if (followed?.isDirectory()) {
      const outside = await outsideProblem(projectDir, path, folder, `init's ${target}`);
      if (outside) throw new ConfigError(outside);
      continue;
    }
    const what = !followed
      ? `a symlink to ${await readlink(path)}, which does not exist`
      : followed.isFile()
        ? info.isSymbolicLink()
          ? 'a symlink to a file'
          : 'a file'
        : 'not a regular folder';
    throw new ConfigError(
      `${folder} is ${what}, not a folder, and init needs ${target}: rename or remove ${folder} and run init again`,
    );
  }
}

/** How an existing target is listed as left alone; a dangling symlink says where it points. */
async function describeExisting(projectDir: string, target: string, info: Stats): Promise<string> {
  const path = join(projectDir, target);
  if (!info.isSymbolicLink() || (await stat(path).catch(() => undefined))) return target;
  return `${target} (a symlink to ${await readlink(path)}, which does not exist)`;
}

/** The package.json to write (through a symlink to its target), or undefined when no script is added. */
async function planPackageJson(
  projectDir: string,
  result: ScaffoldResult,
): Promise<{ file: string; text: string; mode: number } | undefined> {
  const { file, text, json } = await readPackageJson(projectDir);
  const scripts = json.scripts ?? {};
  const set: Array<readonly [string, string]> = [];
  const expected = { ...scripts };
  for (const [name, command] of Object.entries(INIT_SCRIPTS)) {
    const existing = scripts[name];
    if (existing !== undefined && existing !== NPM_PLACEHOLDER_TEST) {
      if (existing !== command)
        result.leftAlone.push(`package.json script "${name}" (${existing})`);
      continue;
    }
    set.push([name, command]);
    expected[name] = command;
    result.created.push(`package.json script "${name}": ${command}`);
  }
  if (set.length === 0) return undefined;
  const byHand = set.map(([name, command]) => `"${name}": "${command}"`).join(', ');
  const refuse = (why: string) =>
    new ConfigError(
      `${why}, so init cannot add its scripts without rewriting the file: fix it, or add the scripts by hand: ${byHand}; then run init again`,
    );
  const edited = setScriptsInText(text, set);
  if ('error' in edited) throw refuse(edited.error);
  // The edit must mean exactly the old JSON plus the scripts; anything else is refused, not written.
  const meant = JSON.stringify({ ...json, scripts: expected });
  if (JSON.stringify(JSON.parse(withoutBom(edited.text))) !== meant)
    throw refuse('package.json is laid out in a way init cannot edit');
  // Written through a symlink: the link stays, its target gets the scripts, when it is in the project.
  const target = await realpath(file);
  const outside = await outsideProblem(projectDir, target, 'package.json', 'adding the scripts');
  if (outside) throw new ConfigError(outside);
  const mode = (await stat(target)).mode & 0o7777;
  if ((mode & 0o222) === 0) {
    throw refuse('package.json is read-only (no write permission for anyone)');
  }
  return { file: target, text: edited.text, mode };
}

function withoutBom(text: string): string {
  return text.startsWith('\ufeff') ? text.slice(1) : text;
}

interface PackageJson {
  file: string;
  text: string;
  json: { scripts?: Record<string, string> } & Record<string, unknown>;
}

async function readPackageJson(projectDir: string): Promise<PackageJson> {
  const file = join(projectDir, 'package.json');
  const info = await lstat(file).catch(() => undefined);
  if (!info) {
    throw new ConfigError(
      `no package.json in ${projectDir}: run npm init -y and npm install -D harness-evals first`,
    );
  }
  if (info.isSymbolicLink() && !(await stat(file).catch(() => undefined))) {
    throw new ConfigError(
      `package.json is a symlink to ${await readlink(file)}, which does not exist: restore its target or replace the link, then run init again`,
    );
  }
  const text = (await readRegularFile(file)).toString('utf8');
  let json: unknown;
  try {
    // npm reads a package.json that starts with a byte order mark; so does init.
    json = JSON.parse(withoutBom(text));
  } catch (error) {
    throw new ConfigError(
      `package.json is not valid JSON (${(error as Error).message}): fix it and run init again`,
    );
  }
  const isObject = (value: unknown) =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  const scripts = isObject(json) ? (json as Record<string, unknown>).scripts : undefined;
  const stringScripts =
    scripts === undefined ||
    (isObject(scripts) && Object.values(scripts as object).every((v) => typeof v === 'string'));
  if (!isObject(json) || !stringScripts) {
    throw new ConfigError(
      'package.json must be an object whose "scripts" (if any) maps names to command strings: fix it and run init again',
    );
  }
  return { file, text, json: json as PackageJson['json'] };
}

async function listFiles(root: string, dir = root): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await listFiles(root, path)));
    else files.push(relative(root, path).split('\\').join('/'));
  }
  return files.sort();
}
