import { execFileSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rejectionOf } from '../core/testing/rejection-of.js';
import {
  createBufferedJsonlTrace,
  createJsonlTrace,
  type TraceEvent,
  TraceExistsError,
  TraceWriteError,
  writeWholeLine,
} from './trace.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'trace-test-'));
  dirs.push(dir);
  return join(dir, 'runs', 'deep', 'run.jsonl');
};
const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as TraceEvent).type);

const start: TraceEvent = {
  type: 'run_start',
  run_id: 'r',
  variant: 'v',
  model: 'm',
  mode: 'unattended',
  system_chars: 1,
  ts: 't',
};
const end: TraceEvent = {
  type: 'run_end',
  status: 'done',
  ts: 't',
  stats: {} as never,
};

describe('createJsonlTrace', () => {
  it('creates the folder, and each event is in the file as soon as it is written', () => {
    const file = tempFile();
    const trace = createJsonlTrace(file);
    expect(readFileSync(file, 'utf8')).toBe('');
    trace.write(start);
    expect(lines(file)).toEqual(['run_start']);
    trace.write({ type: 'summary_skipped', step: 1, error: 'x' });
    expect(lines(file)).toEqual(['run_start', 'summary_skipped']);
    trace.write(end);
    expect(lines(file)).toEqual(['run_start', 'summary_skipped', 'run_end']);
    trace.close();
  });

  it('starts a file empty, appends after run_end or close, and continues a file with append', () => {
    const file = tempFile();
    const first = createJsonlTrace(file);
    first.write(start);
    first.write(end);
    first.write({ type: 'summary_skipped', step: 2, error: 'late' });
    first.close();
    first.close();
    expect(lines(file)).toEqual(['run_start', 'run_end', 'summary_skipped']);
    const resumed = createJsonlTrace(file, { append: true });
    resumed.write(end);
    expect(lines(file)).toEqual(['run_start', 'run_end', 'summary_skipped', 'run_end']);
    const fresh = createJsonlTrace(file);
    fresh.write(start);
    fresh.close();
    expect(lines(file)).toEqual(['run_start']);
  });

  it('with exclusive, creates the file at the first event and never replaces an existing one', async () => {
    const file = tempFile();
    const fresh = createJsonlTrace(file, { exclusive: true });
    expect(existsSync(file)).toBe(false);
    fresh.write(start);
    fresh.write(end);
    fresh.write({ type: 'summary_skipped', step: 2, error: 'late' });
    expect(lines(file)).toEqual(['run_start', 'run_end', 'summary_skipped']);

    const second = createJsonlTrace(file, { exclusive: true });
    const error = await rejectionOf(
      Promise.resolve().then(() => second.write(start)),
      TraceExistsError,
    );
    expect(error.code).toBe('trace_exists');
    expect(error.message).toBe(
      `${file} already exists: it is another run's trace, which a new run never replaces; start the new run under another id`,
    );
    expect(lines(file)).toEqual(['run_start', 'run_end', 'summary_skipped']);
  });

  it('names the file and the cause when the trace cannot be opened or written', async () => {
    const blocker = tempFile();
    mkdirSync(dirname(blocker), { recursive: true });
    writeFileSync(blocker, 'a file, not a folder');
    const file = join(blocker, 'run.jsonl');
    const lazy = createJsonlTrace(file, { exclusive: true });
    const error = await rejectionOf(
      Promise.resolve().then(() => lazy.write(start)),
      TraceWriteError,
    );
    expect(error.code).toBe('trace_write');
    expect(error.message).toMatch(new RegExp(`^could not write ${file}: ENOTDIR`));
    const eager = await rejectionOf(
      Promise.resolve().then(() => createJsonlTrace(file)),
      TraceWriteError,
    );
    expect(eager.message).toMatch(/ENOTDIR/);
  });

  // A disk that fills up mid-line: the kernel writes part of it and says how much.
  it('cuts a line it could write only part of back off, so the file stays whole lines', () => {
    const file = tempFile();
    const trace = createJsonlTrace(file);
    trace.write(start);
    const before = readFileSync(file, 'utf8');
    const fd = openSync(file, 'a');
    try {
      const error = (() => {
        try {
          writeWholeLine(fd, Buffer.from('{"type":"model_call"}\n'), (to, line) =>
            writeSync(to, line, 0, 7),
          );
        } catch (thrown) {
          return thrown as NodeJS.ErrnoException;
        }
        return undefined;
      })();
      expect(error?.code).toBe('ENOSPC');
      expect(error?.message).toBe('wrote 7 of 22 bytes: the disk is full');
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(file, 'utf8')).toBe(before);
    trace.close();
  });

  // A full disk, for real: every write to /dev/full fails with ENOSPC.
  it.runIf(existsSync('/dev/full'))('names the file when its disk is full', async () => {
    const full = createJsonlTrace('/dev/full', { append: true });
    const error = await rejectionOf(
      Promise.resolve().then(() => full.write(start)),
      TraceWriteError,
    );
    expect(error.message).toMatch(/^could not write \/dev\/full: ENOSPC/);
    full.close();
  });

  it('replaces an old trace with an empty file, and the old one is deleted', async () => {
    const file = tempFile();
    const old = createJsonlTrace(file);
    old.write(start);
    old.close();
    const fresh = createJsonlTrace(file);
    expect(readFileSync(file, 'utf8')).toBe('');
    fresh.close();
    // The old file is moved aside and removed in the background.
    const deadline = performance.now() + 5000;
    while (readdirSync(dirname(file)).length > 1 && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(readdirSync(dirname(file))).toEqual(['run.jsonl']);
  });
});

describe('createJsonlTrace: a symlink at the trace path', () => {
  it('refuses to append through a trace that is a symlink (resume), leaving its target as it was', () => {
    const file = tempFile();
    mkdirSync(dirname(file), { recursive: true });
    const victim = join(dirname(file), 'victim.txt');
    writeFileSync(victim, 'keep\n');
    symlinkSync(victim, file);
    expect(() => createJsonlTrace(file, { append: true })).toThrow(
      /run\.jsonl is a symlink: harness-evals does not write traces through links; remove it/,
    );
    expect(readFileSync(victim, 'utf8')).toBe('keep\n');
  });
});

describe('createBufferedJsonlTrace (eval trials)', () => {
  it('writes nothing until flushed, then the whole file, creating its folder', async () => {
    const file = tempFile();
    const trace = createBufferedJsonlTrace(file);
    trace.write(start);
    expect(existsSync(dirname(file))).toBe(false);
    trace.write(end);
    await trace.flush();
    expect(lines(file)).toEqual(['run_start', 'run_end']);
  });

  it('replaces a longer trace of the last run without leaving its bytes behind', async () => {
    const file = tempFile();
    const long = createBufferedJsonlTrace(file);
    for (let step = 0; step < 20; step += 1) long.write(start);
    long.write(end);
    await long.flush();
    const short = createBufferedJsonlTrace(file);
    short.write(end);
    await short.flush();
    expect(readFileSync(file, 'utf8')).toBe(`${JSON.stringify(end)}\n`);
  });

  it('masks card numbers like the appending trace', async () => {
    const file = tempFile();
    const trace = createBufferedJsonlTrace(file);
    trace.write({ ...end, detail: 'card 6222020200112233445 declined' });
    await trace.flush();
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('6222020200112233445');
    expect(text).toContain('6222****3445');
  });
});

describe('createBufferedJsonlTrace: what is at the path already', () => {
  it('never writes through a symlink planted at the trace path: the link is replaced by a file', async () => {
    const file = tempFile();
    mkdirSync(dirname(file), { recursive: true });
    const victim = join(dirname(file), 'victim.txt');
    writeFileSync(victim, 'keep me');
    symlinkSync(victim, file);
    const trace = createBufferedJsonlTrace(file);
    trace.write(end);
    await trace.flush();
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    expect(lines(file)).toEqual(['run_end']);
  });

  it('replaces a FIFO at the trace path instead of writing into it', async () => {
    const file = tempFile();
    mkdirSync(dirname(file), { recursive: true });
    execFileSync('mkfifo', [file]);
    const trace = createBufferedJsonlTrace(file);
    trace.write(end);
    await trace.flush();
    expect(lstatSync(file).isFile()).toBe(true);
    expect(lines(file)).toEqual(['run_end']);
  });
});
