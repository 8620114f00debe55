import { unlinkSync } from 'node:fs';
import { open, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { HarnessError } from '../core/errors.js';
import { processExists } from '../core/process-exists.js';
import { readRegularFile, readRegularFileSync } from '../core/regular-file.js';
import type { TraceSink } from './trace.js';

/** Who holds a run: written into the lock file. */
export interface RunLockHolder {
  pid: number;
  host: string;
  startedAt: string;
}

export interface RunLock {
  readonly file: string;
  readonly holder: RunLockHolder;
  /** Set when the lock was left by a process that is gone, and this one took it over. */
  readonly tookOverFrom?: RunLockHolder;
  /** Remove the lock if it is still ours. Safe to call more than once. */
  release(): Promise<void>;
  /** The same, for exit and signal handlers that cannot wait. */
  releaseSync(): void;
}

/** Another live process holds the run: two processes must never continue one run (double writes). */
export class RunLockedError extends HarnessError {
  readonly holder: RunLockHolder | undefined;
  constructor(message: string, holder: RunLockHolder | undefined) {
    super('run_locked', message);
    this.holder = holder;
  }
}

export interface AcquireRunLockOptions {
  /** The lock file, next to the run's checkpoint (`<run-id>.lock`). */
  file: string;
  runId: string;
  /** Defaults: this process, this host, now. Tests pass others. */
  pid?: number;
  host?: string;
  now?: () => number;
  /** Whether a process of this host is alive. Default: `process.kill(pid, 0)`. */
  isAlive?: (pid: number) => boolean;
}

/** How old an unreadable lock file must be before it counts as left by a dead process. */
const UNREADABLE_GRACE_MS = 10_000;

/**
 * Take the run's lock: an exclusive create of the lock file holding pid, host and start time.
 * A lock whose process is gone (same host, no such pid) is taken over, and the lock says so.
 * A live holder, or one on another host, is a RunLockedError naming the run and the holder.
 *
 * @example
 * const lock = await acquireRunLock({ file: 'runs/checkpoints/run-1.lock', runId: 'run-1' });
 * try { ... } finally { await lock.release(); }
 */
export async function acquireRunLock(options: AcquireRunLockOptions): Promise<RunLock> {
  const { file, runId } = options;
  const holder: RunLockHolder = {
    pid: options.pid ?? process.pid,
    host: options.host ?? hostname(),
    startedAt: new Date((options.now ?? Date.now)()).toISOString(),
  };
  const isAlive = options.isAlive ?? processExists;
  const text = `${JSON.stringify(holder)}\n`;

  if (await createExclusive(file, text)) return ownLock(file, holder, text);
  const held = await readHolder(file);
  // An empty or garbled lock whose file is older than a moment belongs to a process that died
  // between creating it and writing it: stale too. A young one may still be being written.
  const now = (options.now ?? Date.now)();
  const deadWhileWriting =
    held === undefined &&
    now - ((await stat(file).catch(() => undefined))?.mtimeMs ?? now) > UNREADABLE_GRACE_MS;
  if (!deadWhileWriting && (held === undefined || held.host !== holder.host || isAlive(held.pid))) {
    throw lockedError(runId, file, held, holder.host);
  }
  // The holder is gone. Only one of several racing processes may take over: the one that
  // creates the takeover marker first; the others see a live holder or a locked run.
  const marker = `${file}.takeover`;
  if (!(await createExclusive(marker, text))) {
    // A takeover marker left by a process that died mid-takeover is stale too.
    const taking = await readHolder(marker);
    const stale = taking !== undefined && taking.host === holder.host && !isAlive(taking.pid);
    if (stale) await unlink(marker).catch(() => undefined);
    if (!stale || !(await createExclusive(marker, text))) {
      throw lockedError(runId, file, held, holder.host);
    }
  }
  try {
    const again = await readHolder(file);
    if (JSON.stringify(again) !== JSON.stringify(held)) {
      throw lockedError(runId, file, again, holder.host);
    }
    await unlink(file);
    if (!(await createExclusive(file, text))) {
      throw lockedError(runId, file, await readHolder(file), holder.host);
    }
  } finally {
    await unlink(marker).catch(() => undefined);
  }
  return ownLock(file, holder, text, held);
}

/** Locks this process holds, so that exit and signal handlers can release them. */
const held = new Set<RunLock>();

/** Release every lock this process holds (for `process.on('exit')` and signal handlers). */
export function releaseHeldLocksSync(): void {
  for (const lock of [...held]) lock.releaseSync();
}

function ownLock(
  file: string,
  holder: RunLockHolder,
  text: string,
  tookOverFrom?: RunLockHolder,
): RunLock {
  let released = false;
  const ours = (content: string | undefined) => !released && content === text;
  const lock: RunLock = {
    file,
    holder,
    ...(tookOverFrom && { tookOverFrom }),
    async release() {
      const content = await readRegularFile(file)
        .then((bytes) => bytes.toString('utf8'))
        .catch(() => undefined);
      if (ours(content)) await unlink(file).catch(() => undefined);
      released = true;
      held.delete(lock);
    },
    releaseSync() {
      let content: string | undefined;
      try {
        content = readRegularFileSync(file).toString('utf8');
      } catch {
        content = undefined;
      }
      if (ours(content)) {
        try {
          unlinkSync(file);
        } catch {
          // Already gone: nothing to release.
        }
      }
      released = true;
      held.delete(lock);
    },
  };
  held.add(lock);
  return lock;
}

async function createExclusive(file: string, text: string): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(text);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  return true;
}

async function readHolder(file: string): Promise<RunLockHolder | undefined> {
  try {
    const data = JSON.parse(
      (await readRegularFile(file)).toString('utf8'),
    ) as Partial<RunLockHolder>;
    if (typeof data.pid === 'number' && typeof data.host === 'string') {
      return { pid: data.pid, host: data.host, startedAt: String(data.startedAt) };
    }
  } catch {
    // Empty (its creator is writing it, or died right after creating it) or not ours.
  }
  return undefined;
}

function lockedError(
  runId: string,
  file: string,
  held: RunLockHolder | undefined,
  host: string,
): RunLockedError {
  const who =
    held === undefined
      ? 'another process (the lock file cannot be read)'
      : `process ${held.pid}${held.host === host ? '' : ` on host ${held.host}`} since ${held.startedAt}`;
  return new RunLockedError(
    `run '${runId}' is in use by ${who}; wait for it to finish, or, if no such process is running, delete ${file}`,
    held,
  );
}

/**
 * Run `work` while holding the run's lock, when the store can lock; the lock is released on
 * every way out (result, error). A takeover of a stale lock is written to the trace.
 */
export async function withRunLock<T>(
  store: { lock?(runId: string): Promise<RunLock> } | undefined,
  runId: string,
  trace: TraceSink | undefined,
  work: () => Promise<T>,
): Promise<T> {
  const lock = await store?.lock?.(runId);
  if (lock?.tookOverFrom) {
    const { pid, host, startedAt } = lock.tookOverFrom;
    trace?.write({
      type: 'run_lock_taken_over',
      run_id: runId,
      pid,
      host,
      started_at: startedAt,
      ts: lock.holder.startedAt,
    });
  }
  try {
    return await work();
  } finally {
    await lock?.release();
  }
}
