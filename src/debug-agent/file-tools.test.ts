import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rejectionOf } from '../core/testing/rejection-of.js';
import { createReadFileTool, createSearchCodeTool, createWriteFileTool } from './file-tools.js';
import { sandboxWritesOf } from './store.js';
import { execute, fakeRun, usePlaygrounds } from './testing/playgrounds.js';

const playground = usePlaygrounds();

const failure = async (promise: Promise<unknown>) => (await rejectionOf(promise, Error)).message;

describe('read_file', () => {
  it('returns the file with a header naming it relative to the sandbox', async () => {
    const { sandbox } = playground();
    const read = createReadFileTool({ sandbox, confinement: 'strict' });
    const text = String(await execute(read, { path: 'src/math.ts' }));
    expect(text.split('\n')[0]).toMatch(/^src\/math\.ts \(\d+ bytes\)$/);
    expect(text).toContain('return a - b;');
    expect(text).not.toContain(sandbox.realRoot);
  });

  it('reads only the read budget of a huge file and says so', async () => {
    const { sandbox } = playground();
    writeFileSync(join(sandbox.root, 'big.log'), 'x'.repeat(5_000_000));
    const read = createReadFileTool({ sandbox, confinement: 'strict', readBudgetBytes: 1000 });
    const text = String(await execute(read, { path: 'big.log' }));
    expect(text.split('\n')[0]).toBe(
      'big.log (first 1000 of 5000000 bytes: the read budget; use search_code to find lines further down)',
    );
    expect(text.length).toBeLessThan(1200);
  });

  it('refuses a binary file without showing its bytes', async () => {
    const { sandbox } = playground();
    writeFileSync(join(sandbox.root, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    const read = createReadFileTool({ sandbox, confinement: 'strict' });
    expect(await failure(execute(read, { path: 'logo.png' }))).toBe(
      'logo.png is a binary file (7 bytes); read_file shows text files only',
    );
  });

  it('refuses a directory and points to search_code', async () => {
    const { sandbox } = playground();
    const read = createReadFileTool({ sandbox, confinement: 'strict' });
    expect(await failure(execute(read, { path: 'src' }))).toBe(
      'src is a directory; read a file inside it or use search_code',
    );
  });

  it.runIf(process.platform !== 'win32')('refuses a FIFO instead of hanging on it', async () => {
    const { sandbox } = playground();
    execFileSync('mkfifo', [join(sandbox.root, 'pipe')]);
    const read = createReadFileTool({ sandbox, confinement: 'strict' });
    expect(await failure(execute(read, { path: 'pipe' }))).toBe(
      'pipe is not a regular file; it was not read',
    );
  });

  it('baseline: the seed reads the whole file and cuts it at 4000 characters', async () => {
    const { sandbox } = playground();
    writeFileSync(join(sandbox.root, 'big.log'), 'y'.repeat(10_000));
    const read = createReadFileTool({ sandbox, confinement: 'lexical' });
    expect(await execute(read, { path: 'big.log' })).toBe('y'.repeat(4000));
  });

  it.runIf(process.platform !== 'win32')(
    'baseline: a FIFO or a link to a device is refused too, not a hung read or write',
    async () => {
      const { sandbox } = playground();
      execFileSync('mkfifo', [join(sandbox.root, 'pipe')]);
      execFileSync('ln', ['-s', '/dev/null', join(sandbox.root, 'null.txt')]);
      const read = createReadFileTool({ sandbox, confinement: 'lexical' });
      const write = createWriteFileTool({ sandbox, confinement: 'lexical' });
      expect(await failure(execute(read, { path: 'pipe' }))).toBe(
        'pipe is not a regular file; it was not read',
      );
      expect(await failure(execute(write, { path: 'pipe', content: 'x' }))).toBe(
        'pipe is not a regular file; it was not written',
      );
      expect(await failure(execute(write, { path: 'null.txt', content: 'x' }))).toBe(
        'null.txt is not a regular file; it was not written',
      );
    },
  );

  it('baseline: an fs error reaches the model without the sandbox location', async () => {
    const { sandbox } = playground();
    const read = createReadFileTool({ sandbox, confinement: 'lexical' });
    const message = await failure(execute(read, { path: 'src/nope.ts' }));
    expect(message).toContain("open 'src/nope.ts'");
    expect(message).not.toContain(sandbox.realRoot);
  });
});

describe('search_code', () => {
  it('lists path:line: text for every matching line, sorted by file', async () => {
    const { sandbox } = playground();
    const search = createSearchCodeTool({ sandbox, confinement: 'strict' });
    expect(await execute(search, { query: 'function add' })).toBe(
      'src/math.ts:3: export function add(a: number, b: number): number {',
    );
    expect(await execute(search, { query: 'add(2, 3)', path: 'test' })).toBe(
      "test/math.spec.ts:7: ['add(2, 3) is 5', () => assert.equal(add(2, 3), 5)],",
    );
  });

  it('skips binary and oversized files and caps the matches', async () => {
    const { sandbox } = playground();
    writeFileSync(join(sandbox.root, 'blob.bin'), Buffer.from('needle\0needle'));
    writeFileSync(join(sandbox.root, 'many.txt'), 'needle\n'.repeat(80));
    const search = createSearchCodeTool({ sandbox, confinement: 'strict' });
    const text = String(await execute(search, { query: 'needle' }));
    const lines = text.split('\n');
    expect(lines.filter((line) => line.startsWith('many.txt:'))).toHaveLength(50);
    expect(text).not.toContain('blob.bin:');
    expect(lines.slice(-2)).toEqual([
      '[more matches not shown: narrow the query or the path]',
      '[1 binary or oversized files skipped]',
    ]);
  });
});

describe('write_file', () => {
  it('writes the file and records the write for the checks', async () => {
    const { sandbox } = playground();
    const write = createWriteFileTool({ sandbox, confinement: 'strict' });
    const run = fakeRun();
    const content = 'export const x = 1;\n';
    expect(await execute(write, { path: 'src/x.ts', content }, run)).toBe(
      'wrote src/x.ts (20 bytes); run run_test to check the change',
    );
    expect(readFileSync(join(sandbox.root, 'src', 'x.ts'), 'utf8')).toBe(content);
    expect(sandboxWritesOf(run.store)).toEqual([{ path: 'src/x.ts', content }]);
  });
});
