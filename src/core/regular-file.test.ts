import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runStarted } from '../runtime/testing/durable-pipeline.js';
import { FixtureError } from './errors.js';
import {
  NotRegularFileError,
  readRegularFile,
  readRegularFileSync,
  whyUnreadable,
  writeRegularFile,
} from './regular-file.js';

// Each of these used to block for good: a synchronous read of a FIFO blocks the thread (no
// timeout fires), an asynchronous one holds a libuv pool thread, a link to /dev/zero never ends.
let dir: string;
let server: Server | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'regular-file-'));
});
afterEach(() => {
  server?.close();
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const fifo = () => {
  const path = join(dir, 'pipe.json');
  execFileSync('mkfifo', [path]);
  return path;
};
const linkTo = (target: string) => {
  const path = join(dir, 'link.json');
  symlinkSync(target, path);
  return path;
};
const socket = async () => {
  const path = join(dir, 'socket.json');
  server = createServer();
  await new Promise<void>((done) => server?.listen(path, done));
  return path;
};

describe('readRegularFileSync / readRegularFile', () => {
  it('reads a regular file, through a link too', async () => {
    const file = join(dir, 'a.json');
    writeFileSync(file, '{"a":1}');
    expect(readRegularFileSync(file).toString()).toBe('{"a":1}');
    expect((await readRegularFile(linkTo(file))).toString()).toBe('{"a":1}');
  });

  it('refuses a FIFO, a link to /dev/zero and a socket, without blocking', async () => {
    const cases: Array<[string, string]> = [
      [fifo(), 'a FIFO'],
      [linkTo('/dev/zero'), 'a device'],
      [await socket(), 'a socket'],
      [dir, 'a directory'],
    ];
    for (const [path, kind] of cases) {
      expect(() => readRegularFileSync(path), path).toThrow(
        `${path} is ${kind}, not a regular file`,
      );
      await expect(readRegularFile(path), path).rejects.toThrow(
        `${path} is ${kind}, not a regular file`,
      );
    }
  });

  it('passes other errors on as they come', async () => {
    const missing = join(dir, 'missing.json');
    expect(() => readRegularFileSync(missing)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    await expect(readRegularFile(missing)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(whyUnreadable(new NotRegularFileError(missing, 'a FIFO'))).toBe(
      'a FIFO, not a regular file',
    );
    expect(whyUnreadable(Object.assign(new Error('x'), { code: 'EACCES' }))).toBe('EACCES');
  });
});

describe('writeRegularFile', () => {
  it('creates or replaces a regular file', async () => {
    const file = join(dir, 'out.txt');
    await writeRegularFile(file, 'a longer first text');
    await writeRegularFile(file, 'short');
    expect(readFileSync(file, 'utf8')).toBe('short');
  });

  it('refuses a FIFO with no reader and a device, without blocking or writing', async () => {
    await expect(writeRegularFile(fifo(), 'x')).rejects.toThrow(NotRegularFileError);
    await expect(writeRegularFile(linkTo('/dev/null'), 'x')).rejects.toThrow(NotRegularFileError);
  });
});

describe('the readers that use it', () => {
  it('a cassette that is a FIFO is a corrupt fixture, named, not a hung eval', async () => {
    const { readCassette } = await import('../replay/cassette-file.js');
    const path = fifo();
    const error = await readCassette(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FixtureError);
    expect(error).toMatchObject({ code: 'fixture_corrupt' });
    expect((error as Error).message).toMatch(
      /pipe\.json is a FIFO, not a regular file, so it is not read: restore the recorded cassette \(git checkout\) or re-record the trial$/,
    );
  });

  it('an AGENTS.local.md that is a FIFO is a config error naming it', async () => {
    const { loadInstructionFiles } = await import('../runtime/context.js');
    writeFileSync(join(dir, 'AGENTS.md'), '# rules\n');
    execFileSync('mkfifo', [join(dir, 'AGENTS.local.md')]);
    expect(() => loadInstructionFiles(dir)).toThrow(
      `cannot read instruction file ${join(dir, 'AGENTS.local.md')}: ${join(dir, 'AGENTS.local.md')} is a FIFO, not a regular file`,
    );
  });

  it('a reference report that is a FIFO is a config error, not "no such file"', async () => {
    const { loadReference } = await import('../eval/run/finish-run.js');
    const path = fifo();
    await expect(loadReference(dir, path, false)).rejects.toThrow(
      'cannot be read (a FIFO, not a regular file); give a report written by npm run eval (reports/latest.json)',
    );
  });

  it('a run journal that is a FIFO: resuming and appending fail, named', async () => {
    const { createFileJournalStore } = await import('../runtime/journal/journal-store.js');
    const store = createFileJournalStore({ dir });
    const path = join(dir, 'run-1.jsonl');
    const sink = await store.create('run-1', runStarted({ runId: 'run-1', mode: 'unattended' }));
    // Replaced by a FIFO while the run is on (or between the run and its resume).
    rmSync(path);
    execFileSync('mkfifo', [path]);
    const error = await store.open('run-1').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotRegularFileError);
    expect((error as Error).message).toContain(`${path} is a FIFO, not a regular file`);
    await expect(
      sink.append({
        type: 'summary',
        step: 1,
        text: 't',
        messages: 1,
        usage: null,
        ms: 0,
        seq: 2,
        at: '2026-10-01T09:00:00.000Z',
      }),
    ).rejects.toThrow(`${path} is a FIFO with no reader or a socket`);
  });

  it('a trace that is a FIFO: the trace CLI names it', async () => {
    const { readTraces } = await import('../trace-report/read-traces.js');
    const path = join(dir, 'trial-1.jsonl');
    execFileSync('mkfifo', [path]);
    await expect(readTraces([dir])).rejects.toThrow(
      `${path} cannot be read (a FIFO, not a regular file)`,
    );
  });
});
