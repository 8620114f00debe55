import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  symlinkSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rejectionOf } from '../core/testing/rejection-of.js';
import { createWriteFileTool } from './file-tools.js';
import { openInSandbox } from './sandbox-open.js';
import { resolveSandboxPath } from './sandbox-path.js';
import { execute, usePlaygrounds } from './testing/playgrounds.js';

const playground = usePlaygrounds();
const posix = process.platform !== 'win32';

const failure = async (promise: Promise<unknown>) => (await rejectionOf(promise, Error)).message;

describe('write_file onto special files (strict)', () => {
  it.runIf(posix)('refuses a FIFO that nobody reads instead of hanging on it', async () => {
    const { sandbox } = playground();
    execFileSync('mkfifo', [join(sandbox.root, 'pipe')]);
    const write = createWriteFileTool({ sandbox, confinement: 'strict' });
    expect(await failure(execute(write, { path: 'pipe', content: 'x' }))).toBe(
      'pipe is not a regular file (a FIFO or socket); it was not opened',
    );
  });

  it.runIf(posix)('refuses a FIFO that has a reader, writing nothing into it', async () => {
    const { sandbox } = playground();
    const fifo = join(sandbox.root, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const write = createWriteFileTool({ sandbox, confinement: 'strict' });
      expect(await failure(execute(write, { path: 'pipe', content: 'x' }))).toBe(
        'pipe is not a regular file; it was not written',
      );
    } finally {
      closeSync(reader);
    }
  });

  it.runIf(posix)('refuses a Unix socket', async () => {
    const { sandbox } = playground();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(sandbox.root, 'agent.sock'), resolve));
    try {
      const write = createWriteFileTool({ sandbox, confinement: 'strict' });
      expect(await failure(execute(write, { path: 'agent.sock', content: 'x' }))).toMatch(
        /^agent\.sock is not a regular file/,
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses a directory', async () => {
    const { sandbox } = playground();
    const write = createWriteFileTool({ sandbox, confinement: 'strict' });
    expect(await failure(execute(write, { path: 'src', content: 'x' }))).toMatch(
      /^src is a directory/,
    );
  });
});

describe('openInSandbox', () => {
  it.runIf(posix)('refuses a parent directory swapped for a symlink after the check', async () => {
    const { sandbox, outside } = playground();
    const target = resolveSandboxPath(sandbox, 'src/new.ts', {
      confinement: 'strict',
      mustExist: false,
    });
    renameSync(join(sandbox.root, 'src'), join(sandbox.root, 'src-old'));
    symlinkSync(outside, join(sandbox.root, 'src'));
    expect(await failure(openInSandbox(sandbox, target, 'write'))).toMatch(
      /^src\/new\.ts changed into a symbolic link while it was being opened/,
    );
    expect(existsSync(join(outside, 'new.ts'))).toBe(false);
  });

  it('opens and truncates a regular file inside for writing', async () => {
    const { sandbox } = playground();
    mkdirSync(join(sandbox.root, 'src', 'deep'));
    const target = resolveSandboxPath(sandbox, 'src/deep/x.ts', {
      confinement: 'strict',
      mustExist: false,
    });
    const handle = await openInSandbox(sandbox, target, 'write');
    await handle.writeFile('export {};\n');
    await handle.close();
    expect(readFileSync(join(sandbox.root, 'src', 'deep', 'x.ts'), 'utf8')).toBe('export {};\n');
  });
});
