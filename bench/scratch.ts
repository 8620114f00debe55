import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What a bench run leaves on the machine while it runs: its temporary directories (bench
 * projects, the baseline's build, peer projects) and the process groups it started (each
 * measured command runs detached, in a group of its own). `whileRunning` removes the one and
 * ends the other on every way out: a normal end, a thrown error, `process.exit`, and SIGINT,
 * SIGTERM or SIGHUP (a detached group does not get the terminal's Ctrl-C by itself).
 */
const dirs = new Set<string>();
const groups = new Set<number>();

/** A new directory under the OS temp dir, removed when the bench run ends. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.add(dir);
  return dir;
}

/** Remove a scratch directory now. */
export function removeScratchDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  dirs.delete(dir);
}

/** A detached child's process group, ended (SIGKILL) if the run stops while it runs. */
export function trackGroup(pid: number): () => void {
  groups.add(pid);
  return () => groups.delete(pid);
}

/** End every tracked process group and remove every scratch directory. Synchronous: it runs in 'exit'. */
export function cleanUp(): void {
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // The group has ended already.
    }
  }
  groups.clear();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs.clear();
}

const SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;

/**
 * Run `main` with the clean-up armed: on a signal it cleans up and exits 128 + the signal's
 * number, as a shell reports a process killed by it.
 */
export async function whileRunning<T>(main: () => Promise<T>): Promise<T> {
  const onSignal = (signal: NodeJS.Signals) => {
    cleanUp();
    console.error(`stopped by ${signal}: temporary directories removed, measured runs ended`);
    process.exit(128 + SIGNALS[signal as keyof typeof SIGNALS]);
  };
  for (const signal of Object.keys(SIGNALS)) process.on(signal, onSignal);
  process.on('exit', cleanUp);
  try {
    return await main();
  } finally {
    cleanUp();
    for (const signal of Object.keys(SIGNALS)) process.off(signal, onSignal);
    process.off('exit', cleanUp);
  }
}
