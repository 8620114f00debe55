import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ModelClient } from '../model-api/model-client.js';
import { defineTool } from '../runtime/define-tool.js';
import type { Harness } from '../runtime/harness.js';
import { createFileJournalStore } from '../runtime/journal/journal-store.js';
import { resumeAgent } from '../runtime/resume-agent.js';
import { runAgent } from '../runtime/run-agent.js';
import { createJsonlTrace, createMemoryTrace, TraceExistsError } from '../runtime/trace.js';
import { createScriptedModel, textTurn, toolTurn } from '../simulator/scripted-model.js';
import { createVirtualClock } from './clock.js';
import {
  acquireRunLock,
  RunLockedError,
  RunLockFileError,
  releaseHeldLocksSync,
} from './run-lock.js';
import { rejectionOf } from './testing/rejection-of.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'run-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lockFile = () => join(dir, 'run-1.lock');
const alive = (pids: number[]) => (pid: number) => pids.includes(pid);

const lockedError = (promise: Promise<unknown>) => rejectionOf(promise, RunLockedError);
const markerFile = () => `${lockFile()}.takeover`;
const deadLock = (pid = 999) =>
  writeFileSync(
    lockFile(),
    JSON.stringify({ pid, host: 'h', startedAt: '2026-12-01T00:00:00.000Z' }),
  );
const makeOld = (file: string) => {
  const old = new Date(Date.now() - 60_000);
  utimesSync(file, old, old);
};

describe('acquireRunLock', () => {
  it('lets one holder in and refuses a second, naming the run and the holder pid', async () => {
    const first = await acquireRunLock({ file: lockFile(), runId: 'run-1', pid: 111, host: 'h' });
    expect(JSON.parse(readFileSync(lockFile(), 'utf8'))).toMatchObject({ pid: 111, host: 'h' });
    const error = await lockedError(
      acquireRunLock({
        file: lockFile(),
        runId: 'run-1',
        pid: 222,
        host: 'h',
        isAlive: alive([111, 222]),
      }),
    );
    expect(error.code).toBe('run_locked');
    expect(error.message).toMatch(/^run 'run-1' is in use by process 111 since \S+; wait for it/);
    expect(error.message).toContain(`delete ${lockFile()}`);

    await first.release();
    expect(existsSync(lockFile())).toBe(false);
    const second = await acquireRunLock({ file: lockFile(), runId: 'run-1', pid: 222, host: 'h' });
    expect(second.tookOverFrom).toBeUndefined();
    await second.release();
  });

  it('takes over a lock whose process is gone, and says from whom', async () => {
    writeFileSync(
      lockFile(),
      JSON.stringify({ pid: 999, host: 'h', startedAt: '2026-12-01T00:00:00.000Z' }),
    );
    const lock = await acquireRunLock({
      file: lockFile(),
      runId: 'run-1',
      pid: 222,
      host: 'h',
      isAlive: alive([222]),
    });
    expect(lock.tookOverFrom).toEqual({
      pid: 999,
      host: 'h',
      startedAt: '2026-12-01T00:00:00.000Z',
    });
    expect(JSON.parse(readFileSync(lockFile(), 'utf8')).pid).toBe(222);
    expect(existsSync(`${lockFile()}.takeover`)).toBe(false);
    await lock.release();
  });

  it.each([
    ['empty', ''],
    ['garbled', '{"pid": 12'],
    ['not a lock', 'null'],
  ])(
    'takes over an %s lock file left long ago by a process that died while writing it',
    async (_, text) => {
      writeFileSync(lockFile(), text);
      const old = new Date(Date.now() - 60_000);
      utimesSync(lockFile(), old, old);
      const lock = await acquireRunLock({ file: lockFile(), runId: 'run-1', pid: 222, host: 'h' });
      expect(JSON.parse(readFileSync(lockFile(), 'utf8')).pid).toBe(222);
      await lock.release();
    },
  );

  it('refuses a fresh empty lock file: its creator may still be writing it', async () => {
    writeFileSync(lockFile(), '');
    const error = await lockedError(
      acquireRunLock({ file: lockFile(), runId: 'run-1', pid: 222, host: 'h' }),
    );
    expect(error.message).toContain("run 'run-1'");
    expect(readFileSync(lockFile(), 'utf8')).toBe('');
  });

  it('uses the real process table by default: a pid that cannot exist is stale, this process is not', async () => {
    writeFileSync(lockFile(), JSON.stringify({ pid: 2 ** 30, host: 'h', startedAt: 'then' }));
    const lock = await acquireRunLock({ file: lockFile(), runId: 'run-1', host: 'h' });
    expect(lock.tookOverFrom?.pid).toBe(2 ** 30);
    const error = await lockedError(
      acquireRunLock({ file: lockFile(), runId: 'run-1', host: 'h' }),
    );
    expect(error.holder?.pid).toBe(process.pid);
    await lock.release();
  });

  it('never takes over a lock from another host (its pid cannot be checked here)', async () => {
    writeFileSync(lockFile(), JSON.stringify({ pid: 999, host: 'other', startedAt: 'then' }));
    const error = await lockedError(
      acquireRunLock({ file: lockFile(), runId: 'run-1', host: 'h', isAlive: () => false }),
    );
    expect(error.message).toContain('process 999 on host other since then');
  });

  it('does not remove a lock that is no longer its own', async () => {
    const stale = await acquireRunLock({ file: lockFile(), runId: 'run-1', pid: 111, host: 'h' });
    const taker = await acquireRunLock({
      file: lockFile(),
      runId: 'run-1',
      pid: 222,
      host: 'h',
      isAlive: alive([222]),
    });
    await stale.release();
    expect(JSON.parse(readFileSync(lockFile(), 'utf8')).pid).toBe(222);
    releaseHeldLocksSync();
    expect(existsSync(lockFile())).toBe(false);
    await taker.release();
  });
});

describe('acquireRunLock: a lock naming this process', () => {
  it('takes over a lock naming its own pid that it does not hold (a pid reused after a restart)', async () => {
    deadLock(222);
    const lock = await acquireRunLock({
      file: lockFile(),
      runId: 'run-1',
      pid: 222,
      host: 'h',
      isAlive: alive([222]),
    });
    expect(lock.tookOverFrom).toEqual({
      pid: 222,
      host: 'h',
      startedAt: '2026-12-01T00:00:00.000Z',
    });
    expect(JSON.parse(readFileSync(lockFile(), 'utf8')).startedAt).not.toBe(
      '2026-12-01T00:00:00.000Z',
    );
    await lock.release();
    expect(existsSync(lockFile())).toBe(false);
  });

  it('takes over a lock naming the real pid of this process when this process does not hold it', async () => {
    writeFileSync(
      lockFile(),
      JSON.stringify({ pid: process.pid, host: 'h', startedAt: 'before the restart' }),
    );
    const lock = await acquireRunLock({ file: lockFile(), runId: 'run-1', host: 'h' });
    expect(lock.tookOverFrom?.startedAt).toBe('before the restart');
    await lock.release();
  });

  it('still refuses a second acquisition of a run this process holds, until it is released', async () => {
    const first = await acquireRunLock({ file: lockFile(), runId: 'run-1', pid: 222, host: 'h' });
    const error = await lockedError(
      acquireRunLock({ file: lockFile(), runId: 'run-1', pid: 222, host: 'h' }),
    );
    expect(error.holder?.pid).toBe(222);
    // The same file under another spelling of its path is the same lock.
    const error2 = await lockedError(
      acquireRunLock({ file: join(dir, '.', 'run-1.lock'), runId: 'run-1', pid: 222, host: 'h' }),
    );
    expect(error2.holder?.pid).toBe(222);
    await first.release();
    await first.release();
    const second = await acquireRunLock({ file: lockFile(), runId: 'run-1', pid: 222, host: 'h' });
    expect(second.tookOverFrom).toBeUndefined();
    // A failed acquisition leaves no claim behind: a leftover lock with this pid is stale again.
    second.releaseSync();
    deadLock(222);
    const third = await acquireRunLock({ file: lockFile(), runId: 'run-1', pid: 222, host: 'h' });
    expect(third.tookOverFrom?.pid).toBe(222);
    await third.release();
  });

  it('lets exactly one of two acquisitions in one process in, on a free run and on a stale own-pid lock', async () => {
    for (const leftover of [false, true]) {
      if (leftover) deadLock(222);
      const outcomes = await Promise.allSettled(
        [1, 2, 3].map(() =>
          acquireRunLock({ file: lockFile(), runId: 'run-1', pid: 222, host: 'h' }),
        ),
      );
      const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      expect(won).toHaveLength(1);
      expect(
        outcomes.every(
          (outcome) => outcome.status === 'fulfilled' || outcome.reason instanceof RunLockedError,
        ),
      ).toBe(true);
      await (
        won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof acquireRunLock>>>
      ).value.release();
      expect(readdirSync(dir)).toEqual([]);
    }
  });
});

describe('acquireRunLock: takeover markers', () => {
  it.each([
    ['empty', ''],
    ['garbled', '{"pid": 3'],
  ])('takes over a dead lock past an %s takeover marker left long ago', async (_, text) => {
    deadLock();
    writeFileSync(markerFile(), text);
    makeOld(markerFile());
    const lock = await acquireRunLock({
      file: lockFile(),
      runId: 'run-1',
      pid: 222,
      host: 'h',
      isAlive: alive([222]),
    });
    expect(lock.tookOverFrom?.pid).toBe(999);
    expect(readdirSync(dir)).toEqual(['run-1.lock']);
    await lock.release();
  });

  it('refuses while a fresh empty takeover marker may still be being written', async () => {
    deadLock();
    writeFileSync(markerFile(), '');
    await lockedError(
      acquireRunLock({
        file: lockFile(),
        runId: 'run-1',
        pid: 222,
        host: 'h',
        isAlive: alive([222]),
      }),
    );
    expect(JSON.parse(readFileSync(lockFile(), 'utf8')).pid).toBe(999);
  });

  it('refuses while a live process takes the lock over, naming that process', async () => {
    deadLock();
    writeFileSync(markerFile(), JSON.stringify({ pid: 333, host: 'h', startedAt: 'now' }));
    const error = await lockedError(
      acquireRunLock({
        file: lockFile(),
        runId: 'run-1',
        pid: 222,
        host: 'h',
        isAlive: alive([222, 333]),
      }),
    );
    expect(error.message).toContain('process 333');
    expect(existsSync(markerFile())).toBe(true);
  });

  it('takes over past a marker naming its own pid that it does not hold, and past a chain of dead takers', async () => {
    deadLock();
    writeFileSync(markerFile(), JSON.stringify({ pid: 222, host: 'h', startedAt: 'then' }));
    const lock = await acquireRunLock({
      file: lockFile(),
      runId: 'run-1',
      pid: 222,
      host: 'h',
      isAlive: alive([222]),
    });
    expect(lock.tookOverFrom?.pid).toBe(999);
    await lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('lets exactly one of several racing processes take over a dead lock, with or without a dead marker', async () => {
    for (const marker of ['none', 'empty', 'dead']) {
      deadLock();
      if (marker === 'empty') writeFileSync(markerFile(), '');
      if (marker === 'dead') writeFileSync(markerFile(), JSON.stringify({ pid: 998, host: 'h' }));
      if (marker !== 'none') makeOld(markerFile());
      const racers = [301, 302, 303, 304, 305];
      const outcomes = await Promise.allSettled(
        racers.map((pid) =>
          acquireRunLock({
            file: lockFile(),
            runId: 'run-1',
            pid,
            host: 'h',
            isAlive: alive(racers),
          }),
        ),
      );
      const won = outcomes.flatMap((outcome) =>
        outcome.status === 'fulfilled' ? [outcome.value] : [],
      );
      expect(won, marker).toHaveLength(1);
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(RunLockedError);
      }
      expect(JSON.parse(readFileSync(lockFile(), 'utf8')).pid).toBe(won[0]!.holder.pid);
      await won[0]!.release();
      expect(readdirSync(dir), marker).toEqual([]);
    }
  });
});

describe('acquireRunLock: a lock or marker that is not a regular file', () => {
  const fifo = (file: string) => execFileSync('mkfifo', [file]);

  it.each([
    ['a directory', (file: string) => mkdirSync(file), `rm -r`],
    ['a FIFO', fifo, 'rm'],
    [
      'a symbolic link to a missing file',
      (file: string) => symlinkSync(join(dir, 'gone'), file),
      'rm',
    ],
  ])('names a lock that is %s, young or old, and how to remove it', async (kind, make, remove) => {
    make(lockFile());
    for (const age of ['young', 'old']) {
      if (age === 'old' && kind !== 'a symbolic link to a missing file') makeOld(lockFile());
      const error = await rejectionOf(
        acquireRunLock({ file: lockFile(), runId: 'run-1', pid: 222, host: 'h' }),
        RunLockFileError,
      );
      expect(error.code).toBe('run_lock_invalid');
      expect(error.message).toBe(
        `run 'run-1': its lock ${lockFile()} is ${kind}, not a regular file; if no process works on the run, remove it (${remove} ${lockFile()})`,
      );
    }
    expect(existsSync(join(dir, 'run-1.lock.takeover'))).toBe(false);
  });

  it.skipIf(process.getuid?.() === 0)(
    'names a lock it may not read instead of taking it over once old (root reads any file)',
    async () => {
      deadLock();
      execFileSync('chmod', ['000', lockFile()]);
      makeOld(lockFile());
      const error = await rejectionOf(
        acquireRunLock({ file: lockFile(), runId: 'run-1', pid: 222, host: 'h' }),
        RunLockFileError,
      );
      expect(error.message).toContain(`its lock ${lockFile()} cannot be read (EACCES)`);
      expect(existsSync(lockFile())).toBe(true);
    },
  );

  it('names a takeover marker that is a directory, and leaves the dead lock alone', async () => {
    deadLock();
    mkdirSync(markerFile());
    makeOld(markerFile());
    const error = await rejectionOf(
      acquireRunLock({
        file: lockFile(),
        runId: 'run-1',
        pid: 222,
        host: 'h',
        isAlive: alive([222]),
      }),
      RunLockFileError,
    );
    expect(error.message).toBe(
      `run 'run-1': its takeover marker ${markerFile()} is a directory, not a regular file; if no process works on the run, remove it (rm -r ${markerFile()})`,
    );
    expect(JSON.parse(readFileSync(lockFile(), 'utf8')).pid).toBe(999);
  });
});

describe('one process per run', () => {
  const tool = defineTool({
    name: 'lookup',
    description: 'Look up',
    effect: 'read',
    parameters: z.object({}),
    execute: () => 'found',
  });
  const harness: Harness = {
    name: 'lock-test',
    tools: [tool] as never,
    system: () => 'Test.',
    validate: true,
    limits: { maxSteps: 5 },
  };
  const clock = () => createVirtualClock({ start: 0 });

  it('refuses a second resume of a run while the first holds it, then lets it in', async () => {
    const journals = createFileJournalStore({ dir });
    const paused = await runAgent({
      harness,
      model: { createMessage: () => Promise.reject(new Error('network down')) },
      modelId: 'm',
      prompt: 'go',
      clock: clock(),
      mode: 'unattended',
      runId: 'run-1',
      journals,
    });
    expect(paused.status).toBe('error');
    expect(existsSync(lockFile())).toBe(false);

    let answer!: () => void;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const slow: ModelClient = {
      createMessage: async () => {
        await answered;
        return textTurn('done');
      },
    };
    const first = resumeAgent({
      runId: 'run-1',
      journals,
      harness,
      model: slow,
      clock: clock(),
    });
    // The first resume takes the lock before it loads anything.
    while (!existsSync(lockFile())) await new Promise((resolve) => setImmediate(resolve));
    const second = createScriptedModel([textTurn('second')]);
    const error = await lockedError(
      resumeAgent({ runId: 'run-1', journals, harness, model: second, clock: clock() }),
    );
    expect(error.message).toContain(`run 'run-1' is in use by process ${process.pid}`);
    expect(second.requests).toHaveLength(0);

    answer();
    expect((await first).status).toBe('done');
    expect(existsSync(lockFile())).toBe(false);
    const again = await resumeAgent({
      runId: 'run-1',
      journals,
      harness,
      model: createScriptedModel([]),
      clock: clock(),
    });
    expect(again.answer).toBe('done');
  });

  it('releases the lock when resuming throws, and reports a takeover in the trace', async () => {
    const journals = createFileJournalStore({ dir });
    const model = createScriptedModel([toolTurn([{ name: 'lookup', input: {} }]), textTurn('ok')]);
    await runAgent({
      harness,
      model,
      modelId: 'm',
      prompt: 'go',
      clock: clock(),
      mode: 'unattended',
      runId: 'run-1',
      journals,
    });
    const wrongVariant = resumeAgent({
      runId: 'run-1',
      journals,
      harness: { ...harness, name: 'other' },
      model: createScriptedModel([]),
      clock: clock(),
    });
    await expect(wrongVariant).rejects.toThrow("started with the 'lock-test' harness");
    expect(existsSync(lockFile())).toBe(false);

    // A process killed with SIGKILL leaves its lock behind.
    writeFileSync(
      lockFile(),
      JSON.stringify({ pid: 2 ** 30, host: hostname(), startedAt: 'then' }),
    );
    const trace = createMemoryTrace();
    const result = await resumeAgent({
      runId: 'run-1',
      journals,
      harness,
      model: createScriptedModel([]),
      clock: clock(),
      trace,
    });
    expect(result.answer).toBe('ok');
    expect(trace.events[0]).toMatchObject({
      type: 'run_lock_taken_over',
      run_id: 'run-1',
      pid: 2 ** 30,
      started_at: 'then',
    });
    expect(existsSync(lockFile())).toBe(false);
  });

  it("starts no new run over another run's trace, and releases the lock it took over", async () => {
    const journals = createFileJournalStore({ dir });
    // Beside the run's journal (run-1.jsonl), which the run must not create either.
    const traceFile = join(dir, 'run-1.trace.jsonl');
    writeFileSync(traceFile, '{"type":"run_start"}\n');
    writeFileSync(
      lockFile(),
      JSON.stringify({ pid: 2 ** 30, host: hostname(), startedAt: 'then' }),
    );
    const model = createScriptedModel([]);
    const error = await rejectionOf(
      runAgent({
        harness,
        model,
        modelId: 'm',
        prompt: 'go',
        clock: clock(),
        mode: 'unattended',
        runId: 'run-1',
        journals,
        trace: createJsonlTrace(traceFile, { exclusive: true }),
      }),
      TraceExistsError,
    );
    expect(error.message).toContain(traceFile);
    expect(readFileSync(traceFile, 'utf8')).toBe('{"type":"run_start"}\n');
    expect(readdirSync(dir)).toEqual(['run-1.trace.jsonl']);
    expect(model.requests).toHaveLength(0);
  });
});
