import { cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { vi } from 'vitest';
import { runEvalCli } from '../../cli/eval.js';
import { runRecordCli } from '../../cli/record.js';
import { captureCli } from '../../cli/testing/cli.js';
import { REPOSITORY_ROOT } from './hostile-eval-project.js';

/**
 * A throwaway copy of this repository's own evals, to run `npm run eval` in: src/, dist/,
 * node_modules/ and fixtures/ linked, the evals and the files they read copied, and reports/
 * its own. Remove it in afterAll.
 */
export function repositoryCopy(prefix: string): string {
  const project = mkdtempSync(join(tmpdir(), prefix));
  for (const name of ['src', 'dist', 'node_modules', 'fixtures']) {
    symlinkSync(join(REPOSITORY_ROOT, name), join(project, name));
  }
  for (const name of [
    'evals',
    'package.json',
    'tsconfig.json',
    'vitest.evals.config.ts',
    'AGENTS.md',
  ]) {
    cpSync(join(REPOSITORY_ROOT, name), join(project, name), { recursive: true });
  }
  mkdirSync(join(project, 'reports'));
  return project;
}

/**
 * A throwaway project run in process: this repository's dist/ and node_modules/ linked,
 * `copied` files of the repository copied (package.json and the evals config always), and
 * `files` (path in the project -> text) written. Remove it in afterAll.
 */
export function linkedProject(
  prefix: string,
  files: Readonly<Record<string, string>>,
  copied: readonly string[] = [],
): string {
  const project = mkdtempSync(join(tmpdir(), prefix));
  for (const name of ['dist', 'node_modules']) {
    symlinkSync(join(REPOSITORY_ROOT, name), join(project, name));
  }
  for (const name of ['package.json', 'vitest.evals.config.ts', ...copied]) {
    mkdirSync(dirname(join(project, name)), { recursive: true });
    cpSync(join(REPOSITORY_ROOT, name), join(project, name));
  }
  mkdirSync(join(project, 'reports'), { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(project, name)), { recursive: true });
    writeFileSync(join(project, name), text);
  }
  return project;
}

/**
 * A throwaway project for a judged task run in process: this repository's dist/ and
 * node_modules/ linked, the refund desk's agent and the polite-refusal rubric copied, and
 * `evalFiles` (name under evals/ -> text) written. Remove it in afterAll.
 */
export function judgedProject(prefix: string, evalFiles: Readonly<Record<string, string>>) {
  const files = Object.fromEntries(
    Object.entries(evalFiles).map(([name, text]) => [`evals/${name}`, text]),
  );
  return linkedProject(prefix, files, [
    'AGENTS.md',
    'evals/refund-desk.agent.ts',
    'evals/rubrics/polite-refusal.md',
  ]);
}

/** `npm run eval|record -- ...args` in `project`, in process: its output and exit code. */
export async function runCliIn(project: string, cli: 'eval' | 'record', args: string[]) {
  vi.spyOn(process, 'cwd').mockReturnValue(project);
  vi.stubEnv('GITHUB_STEP_SUMMARY', '');
  vi.stubEnv('CI', '');
  try {
    return await captureCli(() => (cli === 'eval' ? runEvalCli(args) : runRecordCli(args)));
  } finally {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  }
}
