import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureCommand, type ProcessRun } from './measure-process.js';

/** Trials of the replay and debug-agent per-trial figures: (N-trial − 1-trial) / (N − 1). */
export const REPLAY_TRIALS = 600;
export const DEBUG_TRIALS = 10;
export const SCALE_TRIALS = 100;

export interface Workload {
  /** The repository whose code is measured (its src/cli/launch.mjs and node_modules). */
  projectDir: string;
  /** A bench project (see workload.ts) the eval runs in. */
  benchDir: string;
  /** An empty vitest project: one test that passes. */
  emptyDir: string;
}

/** An empty vitest run's project: the reference every figure is compared with. */
export function createEmptyVitestProject(projectDir: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'harness-empty-vitest-'));
  symlinkSync(join(projectDir, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  mkdirSync(join(dir, 'test'));
  writeFileSync(
    join(dir, 'test', 'empty.test.ts'),
    "import { expect, it } from 'vitest';\n\nit('passes', () => {\n  expect(1).toBe(1);\n});\n",
  );
  return dir;
}

export function emptyVitest(workload: Workload): Promise<ProcessRun> {
  return checked(
    measureCommand('node', [join(workload.projectDir, 'node_modules/vitest/vitest.mjs'), 'run'], {
      cwd: workload.emptyDir,
    }),
    'empty vitest run',
  );
}

/** `npm run eval -- <flags>` as the user runs it, minus npm's own start-up, in the bench project. */
export function evalRun(workload: Workload, flags: readonly string[]): Promise<ProcessRun> {
  return checked(
    measureCommand('node', [join(workload.projectDir, 'src/cli/launch.mjs'), 'eval', ...flags], {
      cwd: workload.benchDir,
    }),
    `eval ${flags.join(' ')}`,
  );
}

export function npmTest(workload: Workload): Promise<ProcessRun> {
  return measureCommand('npm', ['test'], { cwd: workload.projectDir });
}

/** The run, or an error with the tail of its output when it did not exit 0. */
export async function checked(run: Promise<ProcessRun>, what: string): Promise<ProcessRun> {
  const done = await run;
  if (done.exitCode !== 0) {
    throw new Error(`${what} exited with ${done.exitCode}:\n${done.output.slice(-2000)}`);
  }
  return done;
}
