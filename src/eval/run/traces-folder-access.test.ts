import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../core/errors.js';
import { rejectionOf } from '../../core/testing/rejection-of.js';
import { checkTracesFolder } from './traces-folder.js';

// Root writes anywhere, and the tests often run as root: the access check is mocked instead.
const denied = vi.hoisted(() => new Set<string>());
vi.mock('node:fs/promises', async (original) => {
  const fs = await original<typeof import('node:fs/promises')>();
  return {
    ...fs,
    access: async (path: string, mode?: number) => {
      if ((mode ?? 0) & fs.constants.W_OK && denied.has(path)) {
        throw Object.assign(new Error(`EACCES: permission denied, access '${path}'`), {
          code: 'EACCES',
        });
      }
      return fs.access(path, mode);
    },
  };
});

const made: string[] = [];
afterEach(() => {
  denied.clear();
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A project with fixtures/T2/{baseline,upgraded}/ and runs/eval/T2/ made. */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'traces-folder-access-'));
  made.push(dir);
  for (const variant of ['baseline', 'upgraded']) {
    mkdirSync(join(dir, 'fixtures/T2', variant), { recursive: true });
  }
  mkdirSync(join(dir, 'runs/eval/T2'), { recursive: true });
  return dir;
}

const refused = async (dir: string, selection: Parameters<typeof checkTracesFolder>[1]) =>
  (await rejectionOf(checkTracesFolder(dir, selection), ConfigError)).message;

// A task folder it could not write was refused though the trials write only in its variant
// folders, which were there and writable.
describe('write access to the trace folders, checked only where a trial creates something', () => {
  it('lets through a task folder it cannot write when --variant names variants whose folders exist', async () => {
    const dir = project();
    mkdirSync(join(dir, 'runs/eval/T2/baseline'));
    mkdirSync(join(dir, 'runs/eval/T2/upgraded'));
    denied.add(join(dir, 'runs/eval/T2'));
    await checkTracesFolder(dir, { trials: 1, tasks: ['T2'], variants: ['upgraded'] });
    await checkTracesFolder(dir, { trials: 1, variants: ['baseline', 'upgraded'] });
  });

  it('refuses it when a selected variant folder is still to be made in it', async () => {
    const dir = project();
    mkdirSync(join(dir, 'runs/eval/T2/baseline'));
    denied.add(join(dir, 'runs/eval/T2'));
    expect(await refused(dir, { trials: 1 })).toMatch(
      /^cannot write the trial traces under runs\/eval\/T2: it is a folder it cannot write \(EACCES/,
    );
    // A task without fixtures: its variant folders are known only once the eval files load.
    mkdirSync(join(dir, 'runs/eval/T9'));
    denied.add(join(dir, 'runs/eval/T9'));
    expect(await refused(dir, { trials: 1, tasks: ['T9'] })).toMatch(/under runs\/eval\/T9: /);
  });

  it('refuses it without --variant, though every variant with fixtures has its folder: a new variant makes one', async () => {
    const dir = project();
    mkdirSync(join(dir, 'runs/eval/T2/baseline'));
    mkdirSync(join(dir, 'runs/eval/T2/upgraded'));
    denied.add(join(dir, 'runs/eval/T2'));
    // The eval file may declare a variant not recorded yet: known only once it loads.
    expect(await refused(dir, { trials: 1 })).toMatch(
      /^cannot write the trial traces under runs\/eval\/T2: it is a folder it cannot write \(EACCES/,
    );
    expect(await refused(dir, { trials: 1, tasks: ['T2'] })).toMatch(/under runs\/eval\/T2: /);
  });

  it('refuses a variant folder it cannot write, where the trace files go', async () => {
    const dir = project();
    mkdirSync(join(dir, 'runs/eval/T2/upgraded'));
    denied.add(join(dir, 'runs/eval/T2/upgraded'));
    expect(await refused(dir, { trials: 1, variants: ['upgraded'] })).toMatch(
      /^cannot write the trial traces under runs\/eval\/T2\/upgraded: it is a folder it cannot write \(EACCES/,
    );
  });
});
