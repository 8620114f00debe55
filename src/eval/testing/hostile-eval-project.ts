import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';
import { runEvalCli } from '../../cli/eval.js';
import { captureCli } from '../../cli/testing/cli.js';

/**
 * Throwaway eval projects for tests that run `npm run eval` in process on an eval file whose
 * check does something hostile (a stray timer, a promise nobody awaits). Each replays the
 * committed T2 cassettes through this repository's dist/.
 */

/** This repository, whose dist/, node_modules/ and fixtures/ the projects link to. */
export const REPOSITORY_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const root = REPOSITORY_ROOT;
export const KEY = 'sk-ant-api03-PLANTED0123456789abcdef';
export const CARD = '6222020200112233445';

const made: string[] = [];

/** Removes the projects and sources made so far (call it in afterEach). */
export function removeEvalProjects(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export const readReport = (project: string, ext: string) =>
  readFileSync(join(project, `reports/latest.${ext}`), 'utf8');

/** A throwaway project whose only eval file is `evalFile`, replaying the committed T2 cassettes. */
export function projectWith(evalFile: string): string {
  const project = mkdtempSync(join(tmpdir(), 'eval-run-errors-'));
  made.push(project);
  for (const name of ['dist', 'node_modules', 'fixtures']) {
    symlinkSync(join(root, name), join(project, name));
  }
  for (const name of ['package.json', 'vitest.evals.config.ts', 'AGENTS.md']) {
    cpSync(join(root, name), join(project, name));
  }
  mkdirSync(join(project, 'evals'));
  cpSync(join(root, 'evals/refund-desk.agent.ts'), join(project, 'evals/refund-desk.agent.ts'));
  mkdirSync(join(project, 'reports'));
  cpSync(evalFile, join(project, 'evals/t2-hostile.eval.ts'));
  return project;
}

/** `npm run eval -- ...args` in `project`: its output and exit code. */
export async function evalIn(project: string, args: string[]) {
  vi.spyOn(process, 'cwd').mockReturnValue(project);
  vi.stubEnv('GITHUB_STEP_SUMMARY', '');
  try {
    return await captureCli(() => runEvalCli(args));
  } finally {
    vi.unstubAllEnvs();
  }
}

/** Task T2 of the refund desk with `body` at the start of its check. */
export const hostileCheck = (body: string) =>
  [
    "import { defineTask } from 'harness-evals';",
    "import { expect } from 'vitest';",
    "import { refundDesk } from './refund-desk.agent.js';",
    '',
    'defineTask({',
    '  agent: refundDesk,',
    "  id: 'T2',",
    "  title: 'Order not found',",
    "  prompt: 'How far along is the refund for order ORD3003?',",
    '  check: async ({ answer }) => {',
    `    ${body}`,
    '    expect(answer).toBeTruthy();',
    '  },',
    '});',
    '',
  ].join('\n');

/** hostileCheck(body) written to a temporary t2-hostile.eval.ts, for projectWith. */
export function writeEval(body: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'eval-run-errors-src-'));
  made.push(dir);
  const file = join(dir, 't2-hostile.eval.ts');
  writeFileSync(file, hostileCheck(body));
  return file;
}
