import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../core/atomic-write.js';
import { ConfigError } from '../core/errors.js';
import { readRegularFile } from '../core/regular-file.js';

/** The init templates, shipped with the package next to dist/ (`templates/init`). */
export const TEMPLATE_DIR = fileURLToPath(new URL('../../templates/init/', import.meta.url));

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
  test: 'harness-evals eval',
} as const;

export interface ScaffoldResult {
  created: string[];
  /** Files (and package.json scripts) that existed and were left as they were. */
  leftAlone: string[];
}

/**
 * Scaffold harness-evals into a project: evals/ with an example agent, its model script and
 * one task, reports/, AGENTS.md, a vitest config for evals, a GitHub workflow and the
 * package.json scripts. Never overwrites: an existing file or script is left alone and listed.
 */
export async function scaffold(projectDir: string): Promise<ScaffoldResult> {
  const result: ScaffoldResult = { created: [], leftAlone: [] };
  // Checked before anything is written: a refused init leaves the project as it was.
  const packageJson = await readPackageJson(projectDir);
  for (const file of await listFiles(TEMPLATE_DIR)) {
    const target = RENAMED[file] ?? file;
    const path = join(projectDir, target);
    if (existsSync(path)) {
      result.leftAlone.push(target);
      continue;
    }
    await writeFileAtomic(path, await readFile(join(TEMPLATE_DIR, file), 'utf8'));
    result.created.push(target);
  }
  for (const dir of ['reports', 'fixtures']) {
    if (existsSync(join(projectDir, dir))) continue;
    await mkdir(join(projectDir, dir), { recursive: true });
    result.created.push(`${dir}/`);
  }
  await addScripts(packageJson, result);
  return result;
}

interface PackageJson {
  file: string;
  text: string;
  json: { scripts?: Record<string, string> } & Record<string, unknown>;
}

async function readPackageJson(projectDir: string): Promise<PackageJson> {
  const file = join(projectDir, 'package.json');
  if (!existsSync(file)) {
    throw new ConfigError(
      `no package.json in ${projectDir}: run npm init -y and npm install -D harness-evals first`,
    );
  }
  const text = (await readRegularFile(file)).toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
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

async function addScripts({ file, text, json }: PackageJson, result: ScaffoldResult) {
  const scripts = { ...(json.scripts ?? {}) };
  let changed = false;
  for (const [name, command] of Object.entries(INIT_SCRIPTS)) {
    const existing = scripts[name];
    if (existing !== undefined && existing !== NPM_PLACEHOLDER_TEST) {
      if (existing !== command)
        result.leftAlone.push(`package.json script "${name}" (${existing})`);
      continue;
    }
    scripts[name] = command;
    changed = true;
    result.created.push(`package.json script "${name}": ${command}`);
  }
  if (!changed) return;
  const indent = /^\{\n(\s+)"/.exec(text)?.[1] ?? '  ';
  await writeFileAtomic(file, `${JSON.stringify({ ...json, scripts }, null, indent)}\n`);
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
