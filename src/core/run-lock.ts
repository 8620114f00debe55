import { createHash } from 'node:crypto';
import { constants, unlinkSync } from 'node:fs';
import { lstat, open, realpath, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { HarnessError } from './errors.js';
import { processExists } from './process-exists.js';
import {
  NotRegularFileError,
  openRegularFileHandle,
  readRegularFile,
  readRegularFileSync,
  whyUnreadable,
} from './regular-file.js';

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
  /** The lock file, next to the run's journal (`<run-id>.lock`). */
  file: string;
  runId: string;
  /** Defaults: this process, this host, now. Tests pass others. */
  pid?: number;
  host?: string;
  now?: () => number;
  /** Whether a process of this host is alive. Default: `process.kill(pid, 0)`. */
  isAlive?: (pid: number) => boolean;
}

/** How old an unreadable lock file or takeover marker must be before it counts as left by a dead process. */
const UNREADABLE_GRACE_MS = 10_000;
/** Attempts when the lock keeps vanishing under us, and the longest chain of dead takers passed. */
const MAX_ATTEMPTS = 8;

/**
 * Lock files (by real path) this process holds or is acquiring. A lock naming this process's
 * pid that is not among them was left by an earlier process that ran under the same pid (a
 * container restart): it is stale. Two acquisitions of one run in this process still exclude
 * each other, as the count includes those in flight.
 */
const claims = new Map<string, number>();

/**
 * Take the run's lock: an exclusive create of the lock file holding pid, host and start time.
 * A lock whose process is gone (same host, no such pid; or this process's pid, not held by this
 * process) is taken over, and the lock says so. A live holder, or one on another host, is a
 * RunLockedError naming the run and the holder. A lock path that is not a regular file is a
 * RunLockFileError naming it.
 *
 * @example
 * const lock = await acquireRunLock({ file: 'runs/journals/run-1.lock', runId: 'run-1' });
 * try { ... } finally { await lock.release(); }
 */
export async function acquireRunLock(options: AcquireRunLockOptions): Promise<RunLock> {
  const { file, runId } = options;
  const now = options.now ?? Date.now;
  const holder: RunLockHolder = {
    pid: options.pid ?? process.pid,
    host: options.host ?? hostname(),
    startedAt: new Date(now()).toISOString(),
  };
  const isAlive = options.isAlive ?? processExists;
  const claim = join(
    await realpath(dirname(file)).catch(() => resolve(dirname(file))),
    basename(file),
  );
  claims.set(claim, (claims.get(claim) ?? 0) + 1);
  const attempt: Attempt = {
    file,
    runId,
    holder,
    text: `${JSON.stringify(holder)}\n`,
    isStale: (found) =>
      found.holder === undefined
        ? // Empty or garbled: its creator died between creating and writing it, unless it is
          // young (it may still be being written).
          now() - found.mtimeMs > UNREADABLE_GRACE_MS
        : found.holder.host === holder.host &&
          (found.holder.pid === holder.pid
            ? (claims.get(claim) ?? 0) <= 1
            : !isAlive(found.holder.pid)),
  };
  try {
    const tookOverFrom = await acquire(attempt);
    return ownLock(file, holder, attempt.text, claim, tookOverFrom);
  } catch (error) {
    unclaim(claim);
    throw error;
  }
}

/** A lock path that is not a regular file (a directory, a FIFO, a dangling link) or cannot be read. */
export class RunLockFileError extends HarnessError {
  constructor(message: string) {
    super('run_lock_invalid', message);
  }
}

interface Attempt {
  file: string;
  runId: string;
  holder: RunLockHolder;
  text: string;
  isStale(found: Found): boolean;
}

/** A lock file or takeover marker as read: its holder when it names one, and what identifies it. */
interface Found {
  holder: RunLockHolder | undefined;
  text: string;
  ino: number;
  mtimeMs: number;
}

async function acquire(attempt: Attempt): Promise<RunLockHolder | undefined> {
  const { file, runId, holder, text } = attempt;
  for (let tries = 0; tries < MAX_ATTEMPTS; tries += 1) {
    if (await createExclusive(file, text)) return undefined;
    const found = await inspect(file, 'lock', runId);
    // Released between our create and our read: try again.
    if (found === undefined) continue;
    if (!attempt.isStale(found)) throw lockedError(runId, file, found.holder, holder.host);
    return takeOver(attempt, found);
  }
  throw lockedError(runId, file, undefined, holder.host);
}

/**
 * Replace a stale lock. Only one of several racing processes may: the one that creates the
 * takeover marker first; the others see a live taker. A marker left by a taker that died (its
 * pid is gone, or it is empty and old) is never deleted while others race: the next marker in
 * the chain, named after the dead one, decides instead, so exactly one process wins each.
 */
async function takeOver(attempt: Attempt, stale: Found): Promise<RunLockHolder | undefined> {
  const { file, runId, holder, text } = attempt;
  const passed: string[] = [];
  let marker = `${file}.takeover`;
  let mine: string | undefined;
  for (let tries = 0; mine === undefined; tries += 1) {
    if (tries >= MAX_ATTEMPTS) throw lockedError(runId, file, undefined, holder.host);
    if (await createExclusive(marker, text)) {
      mine = marker;
      break;
    }
    const taker = await inspect(marker, 'takeover marker', runId);
    // Its taker finished (the lock changed, which the check below sees) or gave up.
    if (taker === undefined) continue;
    if (!attempt.isStale(taker)) throw takingOverError(runId, file, taker.holder, holder.host);
    passed.push(marker);
    const id = createHash('sha256')
      .update(`${marker}\n${taker.ino}\n${taker.mtimeMs}\n${taker.text}`)
      .digest('hex')
      .slice(0, 16);
    marker = `${file}.takeover-${id}`;
  }
  try {
    const again = await inspect(file, 'lock', runId);
    if (!sameFile(again, stale)) throw lockedError(runId, file, again?.holder, holder.host);
    await unlink(file).catch(ignoreMissing);
    if (!(await createExclusive(file, text))) {
      throw lockedError(runId, file, (await inspect(file, 'lock', runId))?.holder, holder.host);
    }
  } finally {
    // Safe for the winner alone: once the lock has changed, a marker made again by a late
    // racer fails the check above.
    for (const done of [mine, ...passed]) await unlink(done).catch(() => undefined);
  }
  return stale.holder;
}

const sameFile = (a: Found | undefined, b: Found) =>
  a !== undefined && a.ino === b.ino && a.mtimeMs === b.mtimeMs && a.text === b.text;

const ignoreMissing = (error: NodeJS.ErrnoException) => {
  if (error.code !== 'ENOENT') throw error;
};

function unclaim(claim: string): void {
  const count = (claims.get(claim) ?? 1) - 1;
  if (count > 0) claims.set(claim, count);
  else claims.delete(claim);
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
  claim: string,
  tookOverFrom?: RunLockHolder,
): RunLock {
  let released = false;
  const ours = (content: string | undefined) => !released && content === text;
  const done = () => {
    if (!released) unclaim(claim);
    released = true;
    held.delete(lock);
  };
  const lock: RunLock = {
    file,
    holder,
    ...(tookOverFrom && { tookOverFrom }),
    async release() {
      const content = await readRegularFile(file)
        .then((bytes) => bytes.toString('utf8'))
        .catch(() => undefined);
      if (ours(content)) await unlink(file).catch(() => undefined);
      done();
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
      done();
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

/**
 * Read a lock file or takeover marker without blocking: undefined when it is gone. A directory,
 * FIFO, socket, device or dangling link, or one that cannot be read, is a RunLockFileError:
 * never ours, so never taken over, and the user is told what to remove.
 */
async function inspect(file: string, what: string, runId: string): Promise<Found | undefined> {
  let handle: Awaited<ReturnType<typeof openRegularFileHandle>>;
  try {
    handle = await openRegularFileHandle(file, constants.O_RDONLY);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const link = code === 'ENOENT' ? await lstat(file).catch(() => undefined) : undefined;
    if (code === 'ENOENT' && !link?.isSymbolicLink()) return undefined;
    const kind =
      error instanceof NotRegularFileError
        ? error.kind
        : link
          ? 'a symbolic link to a missing file'
          : undefined;
    if (kind !== undefined) {
      const remove = kind === 'a directory' ? 'rm -r' : 'rm';
      throw new RunLockFileError(
        `run '${runId}': its ${what} ${file} is ${kind}, not a regular file; if no process works on the run, remove it (${remove} ${file})`,
      );
    }
    throw new RunLockFileError(
      `run '${runId}': its ${what} ${file} cannot be read (${whyUnreadable(error)}); fix its permissions, or, if no process works on the run, delete it`,
    );
  }
  try {
    const info = await handle.stat();
    const text = (await handle.readFile()).toString('utf8');
    return { holder: parseHolder(text), text, ino: info.ino, mtimeMs: info.mtimeMs };
  } finally {
    await handle.close();
  }
}

function parseHolder(text: string): RunLockHolder | undefined {
  try {
    const data = JSON.parse(text) as Partial<RunLockHolder> | null;
    if (typeof data?.pid === 'number' && typeof data.host === 'string') {
      return { pid: data.pid, host: data.host, startedAt: String(data.startedAt) };
    }
  } catch {
    // Empty (its creator is writing it, or died right after creating it) or not ours.
  }
  return undefined;
}

function takingOverError(
  runId: string,
  file: string,
  taker: RunLockHolder | undefined,
  host: string,
): RunLockedError {
  const who =
    taker === undefined
      ? 'another process (its takeover marker is still being written)'
      : `process ${taker.pid}${taker.host === host ? '' : ` on host ${taker.host}`}`;
  return new RunLockedError(
    `run '${runId}' is being taken over by ${who} from a process that is gone; wait for it to finish, or, if no such process is running, delete ${file}.takeover*`,
    taker,
  );
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
