import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomic, writeFilesAtomic } from './atomic-write.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'atomic-write-'));
  dirs.push(dir);
  return dir;
}

describe('writeFileAtomic', () => {
  it('names the file it was asked to write, not its temp file, when the folder is unusable', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'reports'), 'a file where a folder should be');
    const error = await writeFileAtomic(join(dir, 'reports/latest.json'), '{}').catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain(`could not write ${join(dir, 'reports/latest.json')}`);
    expect(error.message).not.toContain('.tmp');
    expect(typeof error.code).toBe('string');
  });

  it('says a directory given where the file goes is a directory (comment --out DIR)', async () => {
    const dir = scratch();
    const error = await writeFileAtomic(dir, 'body').catch((e) => e);
    expect(error.message).toBe(`could not write ${dir}: it is a directory; name a file to write`);
  });
});

describe('writeFilesAtomic', () => {
  it('writes every file, leaving no temp file', async () => {
    const dir = scratch();
    await writeFilesAtomic([
      [join(dir, 'a.json'), 'A'],
      [join(dir, 'b.md'), 'B'],
    ]);
    expect(readFileSync(join(dir, 'a.json'), 'utf8')).toBe('A');
    expect(readFileSync(join(dir, 'b.md'), 'utf8')).toBe('B');
    expect(readdirSync(dir).sort()).toEqual(['a.json', 'b.md']);
  });

  // Three renames one after another used to leave latest.json new and latest.html old when the
  // last target could not be replaced: now nothing is replaced.
  it('replaces nothing when one target cannot be replaced (a directory in its place)', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'a.json'), 'old A');
    mkdirSync(join(dir, 'b.html'));
    const error = await writeFilesAtomic([
      [join(dir, 'a.json'), 'new A'],
      [join(dir, 'b.html'), 'new B'],
    ]).catch((e) => e);
    expect(error.message).toContain(`${join(dir, 'b.html')} is a directory`);
    expect(readFileSync(join(dir, 'a.json'), 'utf8')).toBe('old A');
    expect(readdirSync(dir).sort()).toEqual(['a.json', 'b.html']);
  });

  it('holds a Ctrl-C or SIGTERM until the whole set is written, then raises it once', async () => {
    const dir = scratch();
    const raised: string[] = [];
    const writing = writeFilesAtomic(
      [
        [join(dir, 'a.json'), 'A'],
        [join(dir, 'b.md'), 'B'],
      ],
      { raise: (signal) => raised.push(signal) },
    );
    // Delivered while the set is being written (as a CI runner's cancel would be).
    process.emit('SIGTERM', 'SIGTERM');
    expect(raised).toEqual([]);
    await writing;
    expect(readdirSync(dir).sort()).toEqual(['a.json', 'b.md']);
    expect(raised).toEqual(['SIGTERM']);
    expect(process.listenerCount('SIGTERM')).toBe(0);
    expect(process.listenerCount('SIGINT')).toBe(0);
  });

  it('raises a second Ctrl-C at once, and only once', async () => {
    const dir = scratch();
    const raised: string[] = [];
    const writing = writeFilesAtomic([[join(dir, 'a.json'), 'A']], {
      raise: (signal) => raised.push(signal),
    });
    process.emit('SIGINT', 'SIGINT');
    expect(raised).toEqual([]);
    process.emit('SIGINT', 'SIGINT');
    expect(raised).toEqual(['SIGINT']);
    await writing;
    expect(raised).toEqual(['SIGINT']);
    expect(process.listenerCount('SIGINT')).toBe(0);
  });

  it('raises nothing when no signal came', async () => {
    const raised: string[] = [];
    await writeFilesAtomic([[join(scratch(), 'a.json'), 'A']], {
      raise: (signal) => raised.push(signal),
    });
    expect(raised).toEqual([]);
  });
});
