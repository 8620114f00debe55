import { constants, existsSync } from 'node:fs';
import { type FileHandle, open, realpath } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import type { Sandbox } from './sandbox.js';
import { isInside, type SandboxPath } from './sandbox-path.js';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;
const DIRECTORY = constants.O_DIRECTORY ?? 0;
/** Linux: `/proc/self/fd/N/name` looks `name` up in the directory open as N, like openat(2). */
const FD_DIRS = process.platform === 'linux' && existsSync('/proc/self/fd');

export type OpenPurpose = 'read' | 'write';

/**
 * Open a path that `resolveSandboxPath` checked, so that nothing swapped in after the check
 * leads outside the sandbox, and only a regular file comes back:
 * - On Linux every directory from the sandbox root down is opened with O_NOFOLLOW through the
 *   previous one's descriptor (openat-style), so a parent directory replaced by a symbolic
 *   link is refused, never followed, and nothing outside is created or truncated.
 * - Elsewhere the file is opened without truncation and its real path is checked before a
 *   byte is written (a swap there can still create an empty file outside).
 * - O_NONBLOCK: a FIFO never hangs the call; devices, FIFOs, sockets and directories are
 *   refused with a message naming the path.
 */
export async function openInSandbox(
  sandbox: Sandbox,
  target: SandboxPath,
  purpose: OpenPurpose,
): Promise<FileHandle> {
  const access = purpose === 'read' ? constants.O_RDONLY : constants.O_WRONLY | constants.O_CREAT;
  const flags = access | NOFOLLOW | NONBLOCK;
  let handle: FileHandle;
  try {
    handle = FD_DIRS
      ? await openBelow(sandbox.realRoot, target.absolute, flags)
      : await open(target.absolute, flags, 0o644);
  } catch (error) {
    throw describeOpenError(error, target.relative);
  }
  const done = purpose === 'read' ? 'read' : 'written';
  try {
    const info = await handle.stat();
    if (info.isDirectory()) {
      throw new Error(
        `${target.relative} is a directory; ${purpose === 'read' ? 'read a file inside it or use search_code' : 'write a file inside it'}`,
      );
    }
    if (!info.isFile()) {
      // Devices, FIFOs and sockets: reading or writing one could hang or reach hardware.
      throw new Error(`${target.relative} is not a regular file; it was not ${done}`);
    }
    if (!FD_DIRS && !isInside(sandbox.realRoot, await realpath(target.absolute))) {
      throw new Error(`${target.relative} leads outside the sandbox; it was not ${done}`);
    }
    if (purpose === 'write') await handle.truncate(0);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Open `absolute` (inside `root`) one component at a time, following no symbolic link. */
async function openBelow(root: string, absolute: string, flags: number): Promise<FileHandle> {
  const parts = relative(root, absolute).split(sep).filter(Boolean);
  let directory = await open(root, constants.O_RDONLY | DIRECTORY);
  try {
    for (const [index, part] of parts.entries()) {
      const last = index === parts.length - 1;
      const path = `/proc/self/fd/${directory.fd}/${part}`;
      const next = last
        ? await open(path, flags, 0o644)
        : await open(path, constants.O_RDONLY | DIRECTORY | NOFOLLOW);
      await directory.close();
      directory = next;
    }
    return directory;
  } catch (error) {
    await directory.close();
    throw error;
  }
}

function describeOpenError(error: unknown, shown: string): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP' || code === 'ENOTDIR') {
    return new Error(
      `${shown} changed into a symbolic link while it was being opened; only files inside the sandbox can be used`,
    );
  }
  // O_NONBLOCK on a FIFO without a reader (write), or on a socket.
  if (code === 'ENXIO' || code === 'EOPNOTSUPP') {
    return new Error(`${shown} is not a regular file (a FIFO or socket); it was not opened`);
  }
  if (code === 'EISDIR') return new Error(`${shown} is a directory; name a file inside it`);
  if (code === 'ENOENT') return new Error(`no such file or directory: ${shown}`);
  return new Error(`${shown} cannot be opened (${code ?? 'error'})`);
}
