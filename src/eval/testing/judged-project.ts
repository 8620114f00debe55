import { cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';
import { runEvalCli } from '../../cli/eval.js';
import { runRecordCli } from '../../cli/record.js';
import { captureCli } from '../../cli/testing/cli.js';
import { REPOSITORY_ROOT } from './hostile-eval-project.js';

/**
 * A throwaway project for a judged task run in process: this repository's dist/ and
 * node_modules/ linked, the refund desk's agent and the polite-refusal rubric copied, and
 * `evalFiles` (name under evals/ -> text) written. Remove it in afterAll.
 */
export function judgedProject(prefix: string, evalFiles: Readonly<Record<string, string>>) {
  const project = mkdtempSync(join(tmpdir(), prefix));
  for (const name of ['dist', 'node_modules']) {
    symlinkSync(join(REPOSITORY_ROOT, name), join(project, name));
  }
  for (const name of ['package.json', 'vitest.evals.config.ts', 'AGENTS.md']) {
    cpSync(join(REPOSITORY_ROOT, name), join(project, name));
  }
  mkdirSync(join(project, 'evals/rubrics'), { recursive: true });
  mkdirSync(join(project, 'reports'));
  for (const name of ['refund-desk.agent.ts', 'rubrics/polite-refusal.md']) {
    cpSync(join(REPOSITORY_ROOT, 'evals', name), join(project, 'evals', name));
  }
  for (const [name, text] of Object.entries(evalFiles)) {
    writeFileSync(join(project, 'evals', name), text);
  }
  return project;
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
