import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { filesNamingTasks } from './task-files.js';

const dir = mkdtempSync(join(tmpdir(), 'task-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const t1 = file('t1.eval.ts', "defineTask({ id: 'T1', title: 'rules' });");
const t2 = file('t2.eval.ts', 'defineTask({ id: "t2", title: "not found" });');
const t12 = file('t12.eval.ts', 'defineTask({ id: `T12`, title: "twelve" });');
const loop = file('loop.eval.ts', "for (const id of ['T3', 'T4']) defineTask({ id, title: id });");
const all = [t1, t2, t12, loop];

describe('filesNamingTasks: the eval files a --task run needs to load', () => {
  it('keeps the files that name a selected task as a string, case-blind', async () => {
    expect(await filesNamingTasks(all, ['T2'])).toEqual([t2]);
    expect(await filesNamingTasks(all, ['t1', 'T4'])).toEqual([t1, loop]);
  });

  it('matches the whole id, not a prefix of a longer one', async () => {
    expect(await filesNamingTasks(all, ['T1'])).toEqual([t1]);
    expect(await filesNamingTasks(all, ['T12'])).toEqual([t12]);
  });

  it('gives up (undefined: load every file) when some selected task is named nowhere', async () => {
    // A computed id, or a typo: only loading every file can declare it, or list the known tasks.
    expect(await filesNamingTasks(all, ['T2', 'T9'])).toBeUndefined();
    expect(await filesNamingTasks(all, ['.*'])).toBeUndefined();
  });

  it('keeps a file it cannot read, rather than guess it declares nothing', async () => {
    const gone = join(dir, 'gone.eval.ts');
    expect(await filesNamingTasks([...all, gone], ['T2'])).toEqual([t2, gone]);
  });

  it.runIf(process.platform !== 'win32')(
    'keeps a FIFO without reading it (a read would block)',
    async () => {
      const fifo = join(dir, 'fifo.eval.ts');
      execFileSync('mkfifo', [fifo]);
      expect(await filesNamingTasks([...all, fifo], ['T2'])).toEqual([t2, fifo]);
    },
  );
});
