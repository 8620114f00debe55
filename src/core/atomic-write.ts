import { randomUUID } from 'node:crypto';
import { lstat, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { kindOf } from './regular-file.js';

/** Write through a temp file in the same folder and rename: readers see the old file or the new one, never half. */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const temp = await writeTemp(file, data);
  try {
    await rename(temp, file);
  } catch (error) {
    await removeQuietly(temp);
    throw failedWrite(file, error);
  }
}

export interface WriteSetOptions {
  /** How a held signal is delivered afterwards (tests); by default, to this process again. */
  raise?: (signal: NodeJS.Signals) => void;
}

const HELD_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Write a set of files that belong together (a run's latest.json, .md and .html): every temp
 * file first, then the renames back to back. A target that cannot be replaced (a directory in
 * its place) stops the set before anything is replaced. A Ctrl-C or SIGTERM that arrives
 * meanwhile is held until the set is written (tens of milliseconds), then raised again, so an
 * interrupted run leaves the old set or the new one, not half of each. A second one is raised
 * at once.
 */
export async function writeFilesAtomic(
  files: ReadonlyArray<readonly [file: string, data: string | Uint8Array]>,
  options: WriteSetOptions = {},
): Promise<void> {
  const raise = options.raise ?? ((signal) => process.kill(process.pid, signal));
  const held: NodeJS.Signals[] = [];
  let listening = true;
  const stopListening = () => {
    if (!listening) return;
    listening = false;
    for (const signal of HELD_SIGNALS) process.off(signal, hold);
  };
  const hold = (signal: NodeJS.Signals) => {
    held.push(signal);
    // A second Ctrl-C means now (a write stuck on a dead network disk): it is not held.
    if (held.length === 2) {
      stopListening();
      if (process.listenerCount(signal) === 0) raise(signal);
    }
  };
  for (const signal of HELD_SIGNALS) process.on(signal, hold);
  const temps: string[] = [];
  try {
    for (const [file] of files) await refuseNonFile(file);
    for (const [file, data] of files) temps.push(await writeTemp(file, data));
    for (const [index, [file]] of files.entries()) {
      try {
        await rename(temps[index]!, file);
      } catch (error) {
        throw failedWrite(file, error);
      }
    }
    temps.length = 0;
  } finally {
    await Promise.all(temps.map(removeQuietly));
    const first = held.length === 1 ? held[0] : undefined;
    stopListening();
    // Nobody else listens: the signal's default action (exit) is what the user asked for.
    if (first && process.listenerCount(first) === 0) raise(first);
  }
}

async function writeTemp(file: string, data: string | Uint8Array): Promise<string> {
  const directory = dirname(file);
  const temp = join(directory, `.${basename(file)}.${process.pid}.${randomUUID()}.tmp`);
  try {
    await mkdir(directory, { recursive: true });
    await writeFile(temp, data, { flag: 'wx' });
  } catch (error) {
    await removeQuietly(temp);
    throw failedWrite(file, error);
  }
  return temp;
}

/** A temp file may not exist, or its folder may be the problem: the first error is the one to report. */
const removeQuietly = (temp: string) => rm(temp, { force: true }).catch(() => {});

async function refuseNonFile(file: string): Promise<void> {
  const info = await lstat(file).catch(() => undefined);
  if (info && !info.isFile() && !info.isSymbolicLink()) {
    throw Object.assign(
      new Error(`could not write ${file}: ${file} is ${kindOf(info)}; move it out of the way`),
      { code: 'ENOTREG' },
    );
  }
}

/** The error names the file the caller asked for, not the temp file, and keeps its code. */
function failedWrite(file: string, error: unknown): Error {
  const { code, message } = error as NodeJS.ErrnoException;
  if (typeof message === 'string' && message.startsWith('could not write')) return error as Error;
  const why =
    code === 'EACCES' || code === 'EPERM'
      ? `permission denied (${code}): make ${dirname(file)} writable`
      : code === 'ENOTDIR' || code === 'EEXIST'
        ? `${code}: a part of ${dirname(file)} is not a folder`
        : code === 'EISDIR'
          ? 'it is a directory; name a file to write'
          : code === 'ENOSPC'
            ? 'the disk is full (ENOSPC)'
            : (code ?? String(message ?? error));
  return Object.assign(new Error(`could not write ${file}: ${why}`, { cause: error }), {
    ...(code !== undefined && { code }),
  });
}
