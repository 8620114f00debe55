import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { rejectionOf } from '../core/testing/rejection-of.js';
import { type Checkpoint, CheckpointError } from './checkpoint.js';
import {
  checkRunId,
  createFileCheckpointStore,
  createMemoryCheckpointStore,
  unknownRunError,
} from './checkpoint-store.js';
import type { WriteRecord } from './idempotency.js';
import { fromCheckpoint, toCheckpoint } from './run-snapshot.js';
import { emptyStats } from './stop-rules.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'checkpoints-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function checkpoint(step: number, runId = 'run-1'): Checkpoint {
  return {
    version: 1,
    runId,
    state: 'running',
    variant: 'upgraded',
    model: 'm',
    mode: 'interactive',
    prompt: 'p',
    system: 's',
    step,
    messages: [{ role: 'user', content: 'p' }],
    history: [],
    errorTexts: [],
    stats: { ...emptyStats(), steps: step },
    store: {},
    writes: [],
    createdAt: '2026-10-01T09:00:00.000Z',
    updatedAt: '2026-10-01T09:00:00.000Z',
  };
}

const write: WriteRecord = {
  key: 'resubmit_refund:ORD1001:resubmit',
  tool: 'resubmit_refund',
  input: { order_id: 'ORD1001', reason: 'r' },
  output: '{"ok":true}',
  decision: 'ask_approved',
  step: 3,
  at: '2026-10-01T09:00:00.000Z',
};

const caught = (promise: Promise<unknown>) => rejectionOf(promise, CheckpointError);

describe('createFileCheckpointStore', () => {
  it('saves and loads a checkpoint, and an unknown run loads as undefined', async () => {
    const store = createFileCheckpointStore({ dir });
    await store.save(checkpoint(2));
    expect((await store.load('run-1'))?.step).toBe(2);
    expect(await store.load('other')).toBeUndefined();
    expect(await store.list()).toEqual(['run-1']);
  });

  it('keeps the previous checkpoint whole when a save crashes half-way', async () => {
    await createFileCheckpointStore({ dir }).save(checkpoint(2));
    const crashing = createFileCheckpointStore({
      dir,
      // Like writeFileAtomic dying between writing the temp file and the rename.
      writeFile: async (file, data) => {
        await writeFile(`${file}.crash.tmp`, data.slice(0, 40));
        throw new Error('process killed');
      },
    });
    await expect(crashing.save(checkpoint(3))).rejects.toThrow('process killed');
    const store = createFileCheckpointStore({ dir });
    expect((await store.load('run-1'))?.step).toBe(2);
    expect(await store.list()).toEqual(['run-1']);
  });

  it('writes through a temp file and leaves no temp file behind', async () => {
    const store = createFileCheckpointStore({ dir });
    await store.save(checkpoint(1));
    await store.save(checkpoint(2));
    expect(readdirSync(dir)).toEqual(['run-1.json']);
  });

  it('names the file and the fix for a truncated checkpoint, and never restarts the run', async () => {
    const store = createFileCheckpointStore({ dir });
    await store.save(checkpoint(2));
    const file = join(dir, 'run-1.json');
    writeFileSync(file, readFileSync(file, 'utf8').slice(0, 100));
    const error = await caught(store.load('run-1'));
    expect(error.code).toBe('checkpoint_corrupt');
    expect(error.message).toContain(file);
    expect(error.message).toContain('not valid JSON (truncated?)');
    expect(error.message).toContain('The run was not restarted');
  });

  it('names the field of a checkpoint with a wrong shape', async () => {
    const store = createFileCheckpointStore({ dir });
    writeFileSync(join(dir, 'run-1.json'), JSON.stringify({ ...checkpoint(2), step: -1 }));
    const error = await caught(store.load('run-1'));
    expect(error.code).toBe('checkpoint_corrupt');
    expect(error.message).toMatch(/run-1\.json: step: /);
  });

  it('refuses a checkpoint written by another format version', async () => {
    const store = createFileCheckpointStore({ dir });
    writeFileSync(join(dir, 'run-1.json'), JSON.stringify({ ...checkpoint(2), version: 3 }));
    const error = await caught(store.load('run-1'));
    expect(error.code).toBe('checkpoint_version');
    expect(error.message).toContain('uses checkpoint format v3; this build reads v1 and v2');
  });

  it('names the format version before the shape: a newer format is not called damaged', async () => {
    const store = createFileCheckpointStore({ dir });
    const newer = { ...checkpoint(2), version: 3, reviewedBy: 'a key this build does not know' };
    writeFileSync(join(dir, 'run-1.json'), JSON.stringify(newer));
    const error = await caught(store.load('run-1'));
    expect(error.code).toBe('checkpoint_version');
    expect(error.message).toContain('Resume it with the version of harness-evals that wrote it');
  });

  it('writes format v2 and reads v1, as earlier builds wrote it', async () => {
    const store = createFileCheckpointStore({ dir });
    writeFileSync(join(dir, 'run-1.json'), JSON.stringify(checkpoint(2)));
    const older = await store.load('run-1');
    expect(older?.version).toBe(1);
    const meta = { variant: 'upgraded', model: 'm', mode: 'interactive' as const, writes: [] };
    await store.save(toCheckpoint(fromCheckpoint(older!), { ...meta, now: 0 }));
    expect(JSON.parse(readFileSync(join(dir, 'run-1.json'), 'utf8')).version).toBe(2);
    expect((await store.load('run-1'))?.step).toBe(2);
  });

  it('appends writes durably and reads them back in order', async () => {
    const store = createFileCheckpointStore({ dir });
    await store.appendWrite('run-1', write);
    await store.appendWrite('run-1', { ...write, key: 'other', step: 4 });
    expect((await store.loadWrites('run-1')).map((record) => record.key)).toEqual([
      write.key,
      'other',
    ]);
    expect(await store.loadWrites('run-2')).toEqual([]);
  });

  it('reports a torn write-log line with its file and line number', async () => {
    const store = createFileCheckpointStore({ dir });
    await store.appendWrite('run-1', write);
    writeFileSync(join(dir, 'run-1.writes.jsonl'), `${JSON.stringify(write)}\n{"key":"x`, {
      flag: 'w',
    });
    const error = await caught(store.loadWrites('run-1'));
    expect(error.code).toBe('checkpoint_corrupt');
    expect(error.message).toContain('run-1.writes.jsonl:2');
    expect(error.message).toContain('reached the downstream system');
  });

  it('refuses run ids that are not safe file names', () => {
    expect(() => checkRunId('../etc/passwd')).toThrow(ConfigError);
    expect(() => checkRunId('.hidden')).toThrow(ConfigError);
    expect(checkRunId('2026-10-01T09-00-00-000Z-upgraded')).toBe(
      '2026-10-01T09-00-00-000Z-upgraded',
    );
  });
});

describe('createMemoryCheckpointStore', () => {
  it('parses what it saved like a file, so damage is reported the same way', async () => {
    const store = createMemoryCheckpointStore();
    await store.save(checkpoint(1));
    store.files.set('run-1', '');
    const error = await caught(store.load('run-1'));
    expect(error.message).toBe(
      'memory:run-1.json is corrupt: it is empty. The run was not restarted. Restore the file from a backup, or delete it and start a new run (without --resume).',
    );
  });
});

describe('unknownRunError', () => {
  it('names where it looked and the runs it knows', async () => {
    const store = createFileCheckpointStore({ dir });
    await store.save(checkpoint(1, 'run-a'));
    await store.save(checkpoint(1, 'run-b'));
    const error = await unknownRunError(store, 'run-x');
    expect(error.code).toBe('checkpoint_missing');
    expect(error.message).toContain(join(dir, 'run-x.json'));
    expect(error.message).toContain('known runs: run-a, run-b');
  });
});
