import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PREFIX = 'harness-evals-scratch-';
/** A folder is swept only when its process is gone and nothing changed in it for this long. */
const IDLE_MS = 10 * 60_000;

let scratch: string | undefined;

/**
 * A temporary folder for this process's reusable files (test bundles, pooled sandboxes),
 * named by its pid. It is removed at exit when the process exits normally; a vitest worker
 * thread is terminated without an exit event, so on first use the folders of processes that
 * are gone (and idle for ten minutes) are removed instead. Nothing piles up across runs.
 */
export function processScratchDir(): string {
  if (scratch) return scratch;
  const root = tmpdir();
  sweepScratchDirs(root);
  const created = mkdtempSync(join(root, `${PREFIX}${process.pid}-`));
  scratch = created;
  process.once('exit', () => rmSync(created, { recursive: true, force: true }));
  return created;
}

/** Whether a process with this pid exists on this host (EPERM: it does, as another user's). */
function processExists(pid: number): boolean {
  try {
    return process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Remove the scratch folders under `root` whose process is gone and that were idle long enough. */
export function sweepScratchDirs(root: string, now = Date.now()): void {
  for (const name of readdirSync(root)) {
    const pid = Number(/^harness-evals-scratch-(\d+)-/.exec(name)?.[1]);
    if (!pid || pid === process.pid || processExists(pid)) continue;
    try {
      const folder = join(root, name);
      if (now - statSync(folder).mtimeMs > IDLE_MS)
        rmSync(folder, { recursive: true, force: true });
    } catch {
      // Someone else's, or already gone.
    }
  }
}
