import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';

/**
 * Opened without blocking: opening a FIFO for reading would otherwise wait for a writer,
 * forever. (Windows has no O_NONBLOCK and no FIFOs on disk.)
 */
const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** A path that is a FIFO, a socket, a device or a directory: reading it could block forever or never end. */
export class NotRegularFileError extends Error {
  readonly code = 'ENOTREG';
  constructor(
    readonly path: string,
    /** 'a FIFO', 'a socket', 'a device' or 'a directory'. */
    readonly kind: string,
  ) {
    super(`${path} is ${kind}, not a regular file`);
    this.name = 'NotRegularFileError';
  }
}

/** A regular file larger than its reader takes: refused from its size, before a byte is read. */
export class FileTooLargeError extends Error {
  readonly code = 'EFBIG';
  constructor(
    readonly path: string,
    readonly size: number,
    readonly maxBytes: number,
  ) {
    super(`${path} is ${size} bytes, past the ${maxBytes} its reader takes`);
    this.name = 'FileTooLargeError';
  }
}

/** 'a directory', 'a FIFO', 'a socket' or 'a device': what a path that is not a regular file is. */
export const kindOf = (info: Stats): string =>
  info.isDirectory()
    ? 'a directory'
    : info.isFIFO()
      ? 'a FIFO'
      : info.isSocket()
        ? 'a socket'
        : 'a device';

/**
 * Read a file only when it is a regular file (following links): opened without blocking,
 * checked with fstat, then read. A FIFO, socket, device (a link to /dev/zero included) or directory
 * throws NotRegularFileError; other errors (ENOENT, EACCES) are thrown as they come.
 * Every file a user, a model or another process can put in our way goes through here:
 * a synchronous read of a FIFO blocks the thread itself, where no timeout can fire, and an
 * asynchronous one holds one of libuv's four pool threads for good.
 */
export function readRegularFileSync(path: string, options: { maxBytes?: number } = {}): Buffer {
  let fd: number;
  try {
    fd = openSync(path, FLAGS);
  } catch (error) {
    // A socket cannot be opened at all.
    if ((error as NodeJS.ErrnoException).code === 'ENXIO')
      throw new NotRegularFileError(path, 'a socket');
    throw error;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new NotRegularFileError(path, kindOf(info));
    if (options.maxBytes !== undefined && info.size > options.maxBytes) {
      throw new FileTooLargeError(path, info.size, options.maxBytes);
    }
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * A handle on `path`, opened with `flags` plus O_NONBLOCK, only when it is a regular file;
 * NotRegularFileError otherwise (nothing read, written or truncated). Opening a FIFO to write
 * when no reader holds it fails at once (ENXIO) instead of waiting for one.
 */
export async function openRegularFileHandle(
  path: string,
  flags: number,
  mode?: number,
): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(path, flags | (constants.O_NONBLOCK ?? 0), mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENXIO') {
      const reading = (flags & (constants.O_WRONLY | constants.O_RDWR)) === 0;
      throw new NotRegularFileError(
        path,
        reading ? 'a socket' : 'a FIFO with no reader or a socket',
      );
    }
    throw error;
  }
  const info = await handle.stat().catch(async (error: unknown) => {
    await handle.close();
    throw error;
  });
  if (!info.isFile()) {
    await handle.close();
    throw new NotRegularFileError(path, kindOf(info));
  }
  return handle;
}

/** `readRegularFileSync` without blocking the thread while it reads. */
export async function readRegularFile(path: string): Promise<Buffer> {
  const handle = await openRegularFileHandle(path, constants.O_RDONLY);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** Replace a file's content, creating it, only when it is (or becomes) a regular file. */
export async function writeRegularFile(path: string, content: string): Promise<void> {
  const handle = await openRegularFileHandle(path, constants.O_WRONLY | constants.O_CREAT, 0o644);
  try {
    await handle.truncate(0);
    await handle.writeFile(content, 'utf8');
  } finally {
    await handle.close();
  }
}

/** Why a read failed, for a message: "a FIFO, not a regular file", or the error's code or message. */
export function whyUnreadable(error: unknown): string {
  if (error instanceof NotRegularFileError) return `${error.kind}, not a regular file`;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}
