import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript (it runs before any build exists), no declarations
import { distBuilder } from './dist-build.mjs';

const repo = fileURLToPath(new URL('../..', import.meta.url));
let root: string;

/** Write a file dated in the future, so it is newer than any build made before. */
function edit(file: string, text: string, secondsAhead = 10): void {
  writeFileSync(join(root, file), text);
  const later = new Date(Date.now() + secondsAhead * 1000);
  utimesSync(join(root, file), later, later);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'dist-build-'));
  symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src/value.ts'), 'export const value: number = 1;\n');
  writeFileSync(join(root, 'src/value.test.ts'), 'export {};\n');
  writeFileSync(
    join(root, 'tsconfig.json'),
    JSON.stringify({
      // skipLibCheck: tsc then reads no lib .d.ts in full (0.3 s a build instead of 0.8 s idle).
      compilerOptions: {
        module: 'NodeNext',
        target: 'ES2022',
        strict: true,
        types: [],
        skipLibCheck: true,
      },
    }),
  );
  writeFileSync(
    join(root, 'tsconfig.build.json'),
    JSON.stringify({
      extends: './tsconfig.json',
      compilerOptions: { rootDir: 'src', outDir: 'dist' },
      include: ['src'],
      exclude: ['src/**/*.test.ts'],
    }),
  );
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const built = () => readFileSync(join(root, 'dist/value.js'), 'utf8');
const leftovers = () => readdirSync(root).filter((name) => name.startsWith('.dist-'));

// Each test runs tsc (about 1 s idle): a generous ceiling, so a busy machine does not fail them.
describe('distBuilder', { timeout: 60_000 }, () => {
  it('builds a missing dist/, then does nothing while its inputs are unchanged', () => {
    const builder = distBuilder(root, { quiet: true });
    expect(builder.ensureFresh()).toBe(true);
    expect(built()).toContain('value = 1');
    expect(builder.ensureFresh()).toBe(false);
    expect(leftovers()).toEqual([]);
  });

  it('rebuilds after a source edit, not after a test edit', () => {
    const builder = distBuilder(root, { quiet: true });
    builder.ensureFresh();
    edit('src/value.test.ts', 'export const changed = true;\n');
    expect(builder.ensureFresh()).toBe(false);
    edit('src/value.ts', 'export const value: number = 2;\n', 20);
    expect(builder.ensureFresh()).toBe(true);
    expect(built()).toContain('value = 2');
  });

  it('rebuilds after a source file is deleted, so dist/ does not keep it', () => {
    const builder = distBuilder(root, { quiet: true });
    writeFileSync(join(root, 'src/gone.ts'), 'export const gone = true;\n');
    builder.ensureFresh();
    expect(existsSync(join(root, 'dist/gone.js'))).toBe(true);
    rmSync(join(root, 'src/gone.ts'));
    const later = new Date(Date.now() + 10_000);
    utimesSync(join(root, 'src'), later, later);
    expect(builder.ensureFresh()).toBe(true);
    expect(existsSync(join(root, 'dist/gone.js'))).toBe(false);
  });

  it('still builds with a type error, as the sources would run (typecheck is the gate)', () => {
    const builder = distBuilder(root, { quiet: true });
    builder.ensureFresh();
    edit('src/value.ts', "export const value: number = 'two';\n");
    expect(builder.ensureFresh()).toBe(true);
    expect(built()).toContain("value = 'two'");
  });

  it('keeps the old dist/ when the build writes nothing, and leaves no temp folder or lock', () => {
    const builder = distBuilder(root, { quiet: true });
    builder.ensureFresh();
    // A build that finds no inputs writes nothing.
    edit(
      'tsconfig.build.json',
      JSON.stringify({ extends: './tsconfig.json', include: ['nowhere'] }),
    );
    expect(() => builder.ensureFresh()).toThrow(
      /building dist\/ failed \(tsc exited with \d+ and wrote nothing\)[\s\S]*tsconfig/,
    );
    expect(built()).toContain('value = 1');
    expect(leftovers()).toEqual([]);
    expect(existsSync(join(root, '.dist-build.lock'))).toBe(false);
  });

  it('takes over a lock left by a process that is gone or holding no pid, and waits for a live holder', () => {
    const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], {
      encoding: 'utf8',
    });
    writeFileSync(join(root, '.dist-build.lock'), gone.stdout.trim());
    expect(distBuilder(root, { quiet: true }).ensureFresh()).toBe(true);
    expect(existsSync(join(root, '.dist-build.lock'))).toBe(false);

    // A lock holding no pid (its writer died before writing it) is taken over once it is old.
    writeFileSync(join(root, '.dist-build.lock'), '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(root, '.dist-build.lock'), old, old);
    edit('src/value.ts', 'export const value: number = 4;\n');
    expect(distBuilder(root, { quiet: true }).ensureFresh()).toBe(true);
    expect(built()).toContain('value = 4');

    edit('src/value.ts', 'export const value: number = 3;\n', 30);
    writeFileSync(join(root, '.dist-build.lock'), String(process.pid));
    expect(() => distBuilder(root, { lockWaitMs: 200, quiet: true }).ensureFresh()).toThrow(
      `has been held by process ${process.pid} for 0.2 s: if no build is running, delete it`,
    );
    expect(built()).toContain('value = 4');
  });
});

describe('node src/cli/dist-build.mjs', { timeout: 60_000 }, () => {
  /** The script run as npm runs it, from a copy in the temporary project (its root is ../..). */
  const script = (...args: string[]) => {
    // Copied once: a new copy is a source edit, and dist/ would be stale again.
    if (!existsSync(join(root, 'src/cli/dist-build.mjs'))) {
      mkdirSync(join(root, 'src/cli'), { recursive: true });
      copyFileSync(join(repo, 'src/cli/dist-build.mjs'), join(root, 'src/cli/dist-build.mjs'));
    }
    return spawnSync(process.execPath, [join(root, 'src/cli/dist-build.mjs'), ...args], {
      encoding: 'utf8',
    });
  };
  const distInode = () => statSync(join(root, 'dist')).ino;

  it('with --if-stale (npm pack) leaves a fresh dist/ in place, and builds a stale one', () => {
    expect(script('--if-stale').status).toBe(0);
    expect(built()).toContain('value = 1');
    const first = distInode();
    // Fresh: the folder an eval run may be loading is not swapped.
    expect(script('--if-stale').status).toBe(0);
    expect(distInode()).toBe(first);
    edit('src/value.ts', 'export const value: number = 2;\n');
    expect(script('--if-stale').status).toBe(0);
    expect(built()).toContain('value = 2');
    // Without the flag (npm run build) it always builds.
    const second = distInode();
    expect(script().status).toBe(0);
    expect(distInode()).not.toBe(second);
  });

  it('refuses an unknown argument, naming it and the ones it takes', () => {
    const run = script('--if-stail');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('unknown argument --if-stail');
    expect(run.stderr).toContain('--if-stale');
    expect(existsSync(join(root, 'dist'))).toBe(false);
  });
});
