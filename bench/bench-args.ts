import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { whileRunning } from './scratch.js';

/** A bad flag or value: one line naming it and the fix, and exit 2 (as the CLIs do). */
export class BenchUsageError extends Error {}

/** `--rounds N`: a whole number, at least 1 (`fallback` when absent). */
export function roundsOf(value: string | undefined, fallback: number): number {
  const rounds = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(rounds) || rounds < 1 || value?.trim() === '') {
    throw new BenchUsageError(`--rounds ${value}: give a whole number of rounds, at least 1`);
  }
  return rounds;
}

/**
 * `--project DIR`: a checkout of this repository, built and installed (the bench runs its
 * launcher, evals, fixtures and node_modules). Refused before any measuring starts.
 */
export function projectOf(value: string | undefined, fallback: string): string {
  if (value === undefined) return resolve(fallback);
  const dir = resolve(value);
  const needed = ['src/cli/launch.mjs', 'evals', 'fixtures', 'node_modules/vitest'];
  const missing = needed.filter((name) => !existsSync(join(dir, name)));
  if (missing.length > 0) {
    throw new BenchUsageError(
      `--project ${value}: not a harness-evals checkout with its dependencies installed (no ${missing.join(', ')}); give the root of one, after npm ci`,
    );
  }
  return dir;
}

/** node:util's parseArgs, its unknown-flag and missing-value errors as usage errors. */
export function parseBenchArgs<T extends ParseArgsConfig['options']>(
  argv: string[],
  options: T,
): ReturnType<typeof parseArgs<{ args: string[]; options: T }>> {
  try {
    return parseArgs({ args: argv, options });
  } catch (error) {
    // node's messages run on in further sentences and lines: the first says what is wrong.
    const message =
      (error instanceof Error ? error.message : String(error)).split(/\.(?:\s|$)/)[0] ?? '';
    const known = Object.keys(options ?? {})
      .map((name) => `--${name}`)
      .join(', ');
    // A value that starts with '-' reads as a flag unless it is given as --flag=VALUE.
    const hint = /ambiguous/.test(message)
      ? " (a value that starts with '-' is given as --flag=VALUE)"
      : '';
    throw new BenchUsageError(`${message}${hint}: the flags are ${known}`);
  }
}

/**
 * Run a bench script's main: a usage error is one line and exit 2; a failed measurement
 * (a run that exited non-zero, its output included in the message) is the message and exit 1.
 * Either way, and on a signal, its scratch directories are removed and its measured process
 * groups ended (scratch.ts).
 */
export async function runBenchScript(
  name: string,
  main: () => Promise<number | undefined>,
): Promise<void> {
  try {
    process.exitCode = (await whileRunning(main)) ?? 0;
  } catch (error) {
    console.error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = error instanceof BenchUsageError ? 2 : 1;
  }
}
