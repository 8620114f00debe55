import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, promisify } from 'node:util';
import { vi } from 'vitest';

/** Test support: what a CLI function printed, and its exit code. */
export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run a CLI's exported function in-process, collecting console.log / console.error. */
export async function captureCli(run: () => Promise<number>): Promise<CliOutcome> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...args) => {
    stdout.push(`${format(...args)}\n`);
  });
  const error = vi.spyOn(console, 'error').mockImplementation((...args) => {
    stderr.push(`${format(...args)}\n`);
  });
  try {
    const code = await run();
    return { code, stdout: stdout.join(''), stderr: stderr.join('') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

const root = fileURLToPath(new URL('../../..', import.meta.url));
const run = promisify(execFile);

/**
 * Start `npm run <script>` as a real process (for what only a process shows: the entry point,
 * exit codes). The budget is generous on purpose: a busy machine must not fail the test.
 */
export function spawnCli(
  script: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string | undefined> },
): Promise<CliOutcome> {
  return run(process.execPath, [join(root, 'src/cli/launch.mjs'), script, ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env, CI: '' },
    timeout: 120_000,
  }).then(
    (result) => ({ code: 0, ...result }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

/** Process-spawning tests get this vitest timeout: a ceiling, never a benchmark. */
export const PROCESS_TEST_TIMEOUT_MS = 180_000;
