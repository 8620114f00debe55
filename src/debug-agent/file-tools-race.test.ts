import { existsSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createReadFileTool, createWriteFileTool } from './file-tools.js';
import type { Sandbox } from './sandbox.js';
import { execute, usePlaygrounds } from './testing/playgrounds.js';

/** Runs once, right after the path check and before the file is opened. */
const afterCheck = vi.hoisted(() => ({ swap: undefined as undefined | (() => void) }));

vi.mock('./sandbox-path.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('./sandbox-path.js')>();
  return {
    ...original,
    resolveSandboxPath: (...args: Parameters<typeof original.resolveSandboxPath>) => {
      const resolved = original.resolveSandboxPath(...args);
      const swap = afterCheck.swap;
      afterCheck.swap = undefined;
      swap?.();
      return resolved;
    },
  };
});

const playground = usePlaygrounds();

/** Between check and use, `src` becomes a symbolic link to `outside`. */
function swapSrcFor(sandbox: Sandbox, outside: string): void {
  afterCheck.swap = () => {
    renameSync(join(sandbox.root, 'src'), join(sandbox.root, 'src-old'));
    symlinkSync(outside, join(sandbox.root, 'src'));
  };
}

describe.runIf(process.platform !== 'win32')('a parent directory swapped for a symlink', () => {
  it('write_file writes nothing outside the sandbox', async () => {
    const { sandbox, outside } = playground();
    writeFileSync(join(outside, 'math.ts'), 'outside\n');
    swapSrcFor(sandbox, outside);
    const write = createWriteFileTool({ sandbox, confinement: 'strict' });
    await expect(execute(write, { path: 'src/math.ts', content: 'pwned' })).rejects.toThrow(
      'changed into a symbolic link while it was being opened',
    );
    expect(readFileSync(join(outside, 'math.ts'), 'utf8')).toBe('outside\n');
  });

  it('write_file creates nothing outside the sandbox', async () => {
    const { sandbox, outside } = playground();
    swapSrcFor(sandbox, outside);
    const write = createWriteFileTool({ sandbox, confinement: 'strict' });
    await expect(execute(write, { path: 'src/new.ts', content: 'pwned' })).rejects.toThrow(
      'changed into a symbolic link',
    );
    expect(existsSync(join(outside, 'new.ts'))).toBe(false);
  });

  it('read_file reads nothing from outside the sandbox', async () => {
    const { sandbox, outside } = playground();
    writeFileSync(join(outside, 'math.ts'), 'SECRET FROM OUTSIDE\n');
    swapSrcFor(sandbox, outside);
    const read = createReadFileTool({ sandbox, confinement: 'strict' });
    await expect(execute(read, { path: 'src/math.ts' })).rejects.toThrow(
      'changed into a symbolic link',
    );
  });
});
