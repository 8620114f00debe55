import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Vitest } from 'vitest/node';
import { ConfigError } from '../../core/errors.js';
import { filesNamingTasks } from '../task/task-files.js';

/**
 * A --task run's files in two passes: `first`, those that name the tasks (filesNamingTasks),
 * and `rest`, loaded only if `first` does not declare them all. Vitest picks files by
 * substring (a filter for evals/a.eval.ts also picks old-evals/a.eval.ts), so there is a plan
 * only when the two sets pick exactly what they name and nothing in common: no file loads in
 * both passes, and no trial runs twice. Undefined: load every file at once.
 */
export async function narrowedPlan(
  vitest: Vitest,
  tasks: readonly string[],
): Promise<{ first: string[]; rest: string[] } | undefined> {
  const picked = async (filters: string[]) =>
    new Set((await vitest.globTestSpecifications(filters)).map((spec) => spec.moduleId));
  const all = [...(await picked([]))];
  const first = await filesNamingTasks(all, tasks);
  if (!first || first.length === all.length) return undefined;
  const loaded = await picked(first);
  const rest = all.filter((file) => !loaded.has(file));
  if (rest.length === 0) return undefined;
  const later = await picked(rest);
  return [...later].some((file) => loaded.has(file)) ? undefined : { first, rest };
}

/** `vitest.evals.config.ts`, or `.mts` (what init scaffolds: ESM even in a CommonJS package). */
export function evalConfigOf(projectDir: string): string {
  const names = ['vitest.evals.config.ts', 'vitest.evals.config.mts', 'vitest.evals.config.js'];
  const found = names.map((name) => join(projectDir, name)).find((file) => existsSync(file));
  if (!found) {
    throw new ConfigError(
      `no vitest.evals.config.ts in ${projectDir}: run npx harness-evals init, or add one that includes evals/**/*.eval.ts`,
    );
  }
  return found;
}
