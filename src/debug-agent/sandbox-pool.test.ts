import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandboxPool, type SandboxPool } from './sandbox-pool.js';

const pools: SandboxPool[] = [];
afterEach(() => {
  for (const pool of pools.splice(0)) pool.close();
});
const newPool = () => {
  const pool = createSandboxPool();
  pools.push(pool);
  return pool;
};
const math = (root: string) => readFileSync(join(root, 'src', 'math.ts'), 'utf8');

describe('createSandboxPool', () => {
  it('hands an unchanged sandbox to the next run, and gives concurrent runs their own', () => {
    const pool = newPool();
    const first = pool.acquire();
    const second = pool.acquire();
    expect(second.root).not.toBe(first.root);
    first.dispose();
    const third = pool.acquire();
    expect(third.root).toBe(first.root);
    expect(math(third.root)).toContain('return a - b;');
    second.dispose();
    third.dispose();
  });

  it('deletes a sandbox that was written to, so the next run starts from the template', () => {
    const pool = newPool();
    const first = pool.acquire();
    writeFileSync(join(first.root, 'src', 'math.ts'), 'export const add = (a, b) => a + b;\n');
    first.dispose();
    expect(existsSync(first.root)).toBe(false);
    const next = pool.acquire();
    expect(next.root).not.toBe(first.root);
    expect(math(next.root)).toContain('return a - b;');
    next.dispose();
  });

  it.each([
    ['a new file', (root: string) => writeFileSync(join(root, 'notes.txt'), '')],
    ['a new folder', (root: string) => mkdirSync(join(root, 'extra'))],
    ['a symlink', (root: string) => symlinkSync('/etc', join(root, 'link'))],
  ])('deletes a sandbox that gained %s', (_, change) => {
    const pool = newPool();
    const sandbox = pool.acquire();
    change(sandbox.root);
    sandbox.dispose();
    expect(existsSync(sandbox.root)).toBe(false);
  });

  it('removes the idle sandboxes on close, and one returned after close', () => {
    const pool = newPool();
    const idle = pool.acquire();
    const busy = pool.acquire();
    idle.dispose();
    pool.close();
    expect(existsSync(idle.root)).toBe(false);
    busy.dispose();
    expect(existsSync(busy.root)).toBe(false);
    expect(() => busy.dispose()).not.toThrow();
  });
});
