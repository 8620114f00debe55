import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createVirtualClock } from '../core/clock.js';
import { rejectionOf } from '../core/testing/rejection-of.js';
import { createFileCheckpointStore } from './checkpoint-store.js';
import { defineTool } from './define-tool.js';
import type { Harness } from './harness.js';
import type { ModelClient } from './model-client.js';
import { resumeAgent } from './resume-agent.js';
import { runAgent } from './run-agent.js';
import { acquireRunLock, RunLockedError, releaseHeldLocksSync } from './run-lock.js';
import { createScriptedModel, textTurn, toolTurn } from './testing/scripted-model.js';
import { createMemoryTrace } from './trace.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'run-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lockFile = () => join(dir, 'run-1.lock');
const alive = (pids: number[]) => (pid: number) => pids.includes(pid);

const lockedError = (promise: Promise<unknown>) => rejectionOf(promise, RunLockedError);

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
    const checkpoints = createFileCheckpointStore({ dir });
    const paused = await runAgent({
      harness,
      model: { createMessage: () => Promise.reject(new Error('network down')) },
      modelId: 'm',
      prompt: 'go',
      clock: clock(),
      mode: 'unattended',
      runId: 'run-1',
      checkpoints,
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
      checkpoints,
      harness,
      model: slow,
      clock: clock(),
    });
    // The first resume takes the lock before it loads anything.
    while (!existsSync(lockFile())) await new Promise((resolve) => setImmediate(resolve));
    const second = createScriptedModel([textTurn('second')]);
    const error = await lockedError(
      resumeAgent({ runId: 'run-1', checkpoints, harness, model: second, clock: clock() }),
    );
    expect(error.message).toContain(`run 'run-1' is in use by process ${process.pid}`);
    expect(second.requests).toHaveLength(0);

    answer();
    expect((await first).status).toBe('done');
    expect(existsSync(lockFile())).toBe(false);
    const again = await resumeAgent({
      runId: 'run-1',
      checkpoints,
      harness,
      model: createScriptedModel([]),
      clock: clock(),
    });
    expect(again.answer).toBe('done');
  });

  it('releases the lock when resuming throws, and reports a takeover in the trace', async () => {
    const checkpoints = createFileCheckpointStore({ dir });
    const model = createScriptedModel([toolTurn([{ name: 'lookup', input: {} }]), textTurn('ok')]);
    await runAgent({
      harness,
      model,
      modelId: 'm',
      prompt: 'go',
      clock: clock(),
      mode: 'unattended',
      runId: 'run-1',
      checkpoints,
    });
    const wrongVariant = resumeAgent({
      runId: 'run-1',
      checkpoints,
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
      checkpoints,
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
});
