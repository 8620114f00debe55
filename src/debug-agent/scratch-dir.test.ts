import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processScratchDir, sweepScratchDirs } from './scratch-dir.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('scratch folders', () => {
  it('gives this process one folder, named by its pid', () => {
    const dir = processScratchDir();
    expect(processScratchDir()).toBe(dir);
    expect(dir).toContain(`harness-evals-scratch-${process.pid}-`);
    expect(existsSync(dir)).toBe(true);
  });

  it('sweeps only the idle folders of processes that are gone', () => {
    const root = mkdtempSync(join(tmpdir(), 'scratch-sweep-'));
    roots.push(root);
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const make = (name: string, ageMs: number) => {
      const folder = join(root, name);
      mkdirSync(join(folder, 'inside'), { recursive: true });
      const at = (Date.now() - ageMs) / 1000;
      utimesSync(folder, at, at);
      return folder;
    };
    const hour = 60 * 60_000;
    const stale = make(`harness-evals-scratch-${gone}-old`, hour);
    const recent = make(`harness-evals-scratch-${gone}-new`, 0);
    const live = make(`harness-evals-scratch-${process.pid}-mine`, hour);
    const parent = make(`harness-evals-scratch-${process.ppid}-parent`, hour);
    const other = make('something-else-1', hour);
    sweepScratchDirs(root);
    expect(existsSync(stale)).toBe(false);
    for (const kept of [recent, live, parent, other]) expect(existsSync(kept)).toBe(true);
  });
});
