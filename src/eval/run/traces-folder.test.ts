import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors.js';
import { rejectionOf } from '../../core/testing/rejection-of.js';
import { checkTracesFolder } from './traces-folder.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A project with fixtures/T2/{baseline,upgraded}/ and runs/eval/ made. */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'traces-folder-'));
  made.push(dir);
  for (const variant of ['baseline', 'upgraded']) {
    mkdirSync(join(dir, 'fixtures/T2', variant), { recursive: true });
  }
  mkdirSync(join(dir, 'runs/eval'), { recursive: true });
  return dir;
}

const refused = async (dir: string, selection: Parameters<typeof checkTracesFolder>[1]) =>
  (await rejectionOf(checkTracesFolder(dir, selection), ConfigError)).message;
const fix = (shown: string) =>
  `make ${shown} a writable folder (move away what is in its way), then run again`;

// A file at runs/eval/T2 errored T2's trials one by one, each naming the path.
describe("a selected task's and variant's trace folders, checked before any trial runs", () => {
  it('refuses a file where a selected task folder goes, naming it and the fix', async () => {
    const dir = project();
    writeFileSync(join(dir, 'runs/eval/T2'), 'not a folder\n');
    expect(await refused(dir, { trials: 1, tasks: ['T2'] })).toBe(
      `cannot write the trial traces under runs/eval/T2: it is a file, not a folder; ${fix('runs/eval/T2')}`,
    );
    // Every task with fixtures, when no --task narrows; the task id as its fixtures spell it.
    expect(await refused(dir, { trials: 1 })).toMatch(/^cannot write .* under runs\/eval\/T2: /);
    expect(await refused(dir, { trials: 1, tasks: ['t2'] })).toMatch(/under runs\/eval\/T2: /);
  });

  // --suite refund checked nothing: the fixtures were filtered by an empty suite name.
  it("checks the fixtures' task folders under a suite selection too", async () => {
    const dir = project();
    writeFileSync(join(dir, 'runs/eval/T2'), 'not a folder\n');
    expect(await refused(dir, { trials: 1, suites: ['refund'] })).toMatch(
      /^cannot write the trial traces under runs\/eval\/T2: it is a file, not a folder;/,
    );
    expect(await refused(dir, { trials: 1, suites: ['refund-desk'], tasks: ['T2'] })).toMatch(
      /under runs\/eval\/T2: /,
    );
  });

  it('refuses a FIFO, a symlink to a file or a broken symlink where a variant folder goes', async () => {
    const dir = project();
    mkdirSync(join(dir, 'runs/eval/T2'));
    const upgraded = join(dir, 'runs/eval/T2/upgraded');
    const shown = 'runs/eval/T2/upgraded';
    execFileSync('mkfifo', [upgraded]);
    expect(await refused(dir, { trials: 1 })).toBe(
      `cannot write the trial traces under ${shown}: it is a FIFO, not a folder; ${fix(shown)}`,
    );
    rmSync(upgraded);
    writeFileSync(join(dir, 'file'), '');
    symlinkSync(join(dir, 'file'), upgraded);
    expect(await refused(dir, { trials: 1, tasks: ['T2'] })).toContain(
      `under ${shown}: it is a symlink to a file, not a folder;`,
    );
    rmSync(upgraded);
    symlinkSync(join(dir, 'gone'), upgraded);
    expect(await refused(dir, { trials: 1, variants: ['upgraded'] })).toContain(
      `under ${shown}: it is a broken symlink, not a folder;`,
    );
  });

  it('refuses a folder where a selected trial writes its trace file', async () => {
    const dir = project();
    mkdirSync(join(dir, 'runs/eval/T2/baseline/trial-2.jsonl'), { recursive: true });
    expect(await refused(dir, { trials: 3 })).toBe(
      'cannot write the trial traces under runs/eval/T2/baseline: trial-2.jsonl in it is a folder, where the trace of trial 2 goes; move it away, then run again',
    );
    await checkTracesFolder(dir, { trials: 1 });
    await checkTracesFolder(dir, { trials: 3, trialNumbers: [1, 3] });
  });

  it('lets through what is not in the way of this run', async () => {
    const dir = project();
    writeFileSync(join(dir, 'runs/eval/notes.txt'), '');
    writeFileSync(join(dir, 'runs/eval/T9'), '');
    mkdirSync(join(dir, 'runs/eval/T2'));
    writeFileSync(join(dir, 'runs/eval/T2/upgraded'), '');
    symlinkSync(join(dir, 'fixtures'), join(dir, 'runs/eval/T2/baseline'));
    await checkTracesFolder(dir, { trials: 1, tasks: ['T2'], variants: ['baseline'] });
    await checkTracesFolder(dir, { trials: 1, tasks: ['T3'] });
  });

  it('skips names no task or variant can have (they are refused as unknown later)', async () => {
    const dir = project();
    writeFileSync(join(dir, 'outside'), '');
    await checkTracesFolder(dir, { trials: 1, tasks: ['../../outside'], variants: ['..'] });
  });

  it.skipIf(process.getuid?.() === 0)(
    'refuses a task folder it cannot write (root writes anywhere: skipped as root)',
    async () => {
      const dir = project();
      mkdirSync(join(dir, 'runs/eval/T2'));
      chmodSync(join(dir, 'runs/eval/T2'), 0o555);
      try {
        expect(await refused(dir, { trials: 1 })).toMatch(
          /^cannot write the trial traces under runs\/eval\/T2: it is a folder it cannot write \(EACCES/,
        );
      } finally {
        chmodSync(join(dir, 'runs/eval/T2'), 0o755);
      }
    },
  );
});
