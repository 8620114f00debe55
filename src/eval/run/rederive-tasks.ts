import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { maskConfiguredKeys } from '../../core/secret-values.js';
import { inventoryFixtures } from '../verify/fixture-inventory.js';
import type { ScriptedVerdict } from '../verify/rederive-scripted.js';
import { EvalReporter } from './reporter.js';
import { runVitest, setEnv } from './run-evals.js';
import { evalConfigOf } from './vitest-files.js';

/** What the task files said of their cassettes: re-derived with their scripts, or why they could not say. */
export interface TaskRederivation {
  verdicts: ScriptedVerdict[];
  /** Eval files that failed to load, and errors outside any trial: their tasks' scripts are unknown. */
  loadErrors: string[];
}

/**
 * Load the project's eval files (as `eval` does, in vitest) and have each selected trial
 * re-derive its cassettes with its task's own model script and judge scripts, running no agent
 * (the trials' `verify` mode). Undefined when the project has no eval config: no task declares
 * a script then, and the built-in simulator is all there is to re-derive with.
 */
export async function rederiveWithTaskScripts(options: {
  projectDir: string;
  tasks?: string[];
  variants?: string[];
  trialNumbers?: number[];
}): Promise<TaskRederivation | undefined> {
  const projectDir = resolve(options.projectDir);
  const configs = ['vitest.evals.config.ts', 'vitest.evals.config.mts', 'vitest.evals.config.js'];
  if (!configs.some((name) => existsSync(join(projectDir, name)))) return undefined;
  maskConfiguredKeys(process.env);
  const recorded = [...inventoryFixtures(join(projectDir, 'fixtures')).values()].flat();
  const trials = Math.max(1, ...recorded);
  setEnv(
    {
      projectDir,
      mode: 'verify',
      trials,
      ...(options.trialNumbers && { trialNumbers: options.trialNumbers }),
      ...(options.tasks && { tasks: options.tasks }),
      ...(options.variants && { variants: options.variants }),
    },
    projectDir,
  );
  const reporter = new EvalReporter({ root: projectDir, preloadTranscripts: false });
  await runVitest({
    projectDir,
    config: evalConfigOf(projectDir),
    concurrency: undefined,
    reporter,
  });
  return {
    verdicts: reporter.scripted,
    loadErrors: [...reporter.loadErrors, ...reporter.runErrors, ...reporter.inputErrors],
  };
}
