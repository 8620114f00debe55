import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { whyItFailed } from './failure-output.js';
import { measureCommand, type ProcessRun } from './measure-process.js';
import { scratchDir } from './scratch.js';

/** Trials of the replay and debug-agent per-trial figures: (N-trial − 1-trial) / (N − 1). */
export let REPLAY_TRIALS = 600;
export let DEBUG_TRIALS = 10;
export let SCALE_TRIALS = 100;

/**
 * `--smoke`: the same runs at small sizes (one round, well under a minute), so CI sees the
 * bench break without paying for its figures. Set before anything is measured; importers read
 * the sizes through ES module live bindings.
 */
export function useSmokeSizes(): void {
  REPLAY_TRIALS = 10;
  DEBUG_TRIALS = 2;
  // Human labels name trials up to 5 (evals/labels/): fewer would be a bad input.
  SCALE_TRIALS = 5;
}
/** `npm run eval --` flags of each figure (the trial count follows REPLAY_FLAGS and DEBUG_FLAGS). */
export const STARTUP_FLAGS = ['--task', 'T2', '--trials', '1'] as const;
export const REPLAY_FLAGS = ['--task', 'T2', '--variant', 'upgraded', '--trials'] as const;
export const DEBUG_FLAGS = ['--suite', 'debug', '--trials'] as const;

export interface Workload {
  /** The repository whose code is measured (its src/cli/launch.mjs and node_modules). */
  projectDir: string;
  /** A bench project (see workload.ts) the eval runs in. */
  benchDir: string;
  /** An empty vitest project: one test that passes. */
  emptyDir: string;
  /** Which build, in error messages: this build unless told (the baseline's ref). */
  name?: string;
}

/** Tests in the empty project's file; 1 unless the floor row asks for more. */
const EMPTY_TESTS_ENV = 'HARNESS_BENCH_EMPTY_TESTS';

/**
 * An empty vitest run's project: the reference every figure is compared with. Its one
 * file holds one passing test, or `HARNESS_BENCH_EMPTY_TESTS` of them laid out as the
 * evals lay out trials (`describe.concurrent`), for vitest's own cost per test.
 */
export function createEmptyVitestProject(projectDir: string): string {
  const dir = scratchDir('harness-empty-vitest-');
  symlinkSync(join(projectDir, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  mkdirSync(join(dir, 'test'));
  writeFileSync(
    join(dir, 'test', 'empty.test.ts'),
    [
      "import { describe, expect, it } from 'vitest';",
      '',
      `const tests = Number(process.env.${EMPTY_TESTS_ENV} ?? 1);`,
      "describe.concurrent('empty', () => {",
      '  for (let test = 1; test <= tests; test += 1) {',
      "    it('passes ' + test, () => {",
      '      expect(test).toBeGreaterThan(0);',
      '    });',
      '  }',
      '});',
      '',
    ].join('\n'),
  );
  return dir;
}

/** `vitest run` in the empty project: one passing test, or `tests` of them. */
export function emptyVitest(workload: Workload, tests = 1): Promise<ProcessRun> {
  return checked(
    measureCommand('node', [join(workload.projectDir, 'node_modules/vitest/vitest.mjs'), 'run'], {
      cwd: workload.emptyDir,
      env: { [EMPTY_TESTS_ENV]: String(tests) },
    }),
    `empty vitest run (${tests} ${tests === 1 ? 'test' : 'tests'})`,
  );
}

/** A fresh node process that imports `modules` (none: node's own start-up), from the project. */
export function importModules(workload: Workload, modules: readonly string[]): Promise<ProcessRun> {
  const script = modules.map((name) => `await import(${JSON.stringify(name)});`).join(' ');
  return checked(
    measureCommand('node', ['--input-type=module', '-e', script], { cwd: workload.projectDir }),
    `node importing ${modules.join(', ') || 'nothing'}`,
  );
}

/** `npm run eval -- <flags>` as the user runs it, minus npm's own start-up, in the bench project. */
export function evalRun(workload: Workload, flags: readonly string[]): Promise<ProcessRun> {
  return checked(
    measureCommand('node', [join(workload.projectDir, 'src/cli/launch.mjs'), 'eval', ...flags], {
      cwd: workload.benchDir,
    }),
    `eval ${flags.join(' ')} (${workload.name ?? 'this build'})`,
  );
}

const TRIAL_LOOP = fileURLToPath(new URL('./trial-loop.mjs', import.meta.url));

/**
 * The replayed T2 trials of `evalRun(--task T2 --variant upgraded --trials N)` without vitest:
 * runTrial in a plain loop in a fresh node (trial-loop.mjs), from the bench project's dist/.
 */
export function trialLoop(workload: Workload, trials: number): Promise<ProcessRun> {
  return checked(
    measureCommand('node', [TRIAL_LOOP, workload.benchDir, String(trials)], {
      cwd: workload.benchDir,
    }),
    `the trial loop without vitest (${trials} trials, ${workload.name ?? 'this build'})`,
  );
}

export function npmTest(workload: Workload): Promise<ProcessRun> {
  return measureCommand('npm', ['test'], { cwd: workload.projectDir });
}

/** The run, or an error with the tail of its output when it did not exit 0. */
export async function checked(run: Promise<ProcessRun>, what: string): Promise<ProcessRun> {
  const done = await run;
  if (done.exitCode !== 0) {
    throw new Error(`${what} exited with ${done.exitCode}:\n${whyItFailed(done.output)}`);
  }
  return done;
}
