import { constants } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../core/atomic-write.js';
import { ConfigError } from '../core/errors.js';
import { redactValue } from '../core/redact.js';
import { openRegularFileHandle, readRegularFile } from '../core/regular-file.js';
import {
  type Checkpoint,
  CheckpointError,
  parseCheckpoint,
  parseWriteLogEntry,
} from './checkpoint.js';
import type { WriteLogEntry } from './idempotency.js';
import { acquireRunLock, type RunLock } from './run-lock.js';

/**
 * Where runs keep their state between steps. The default is a folder of files; anything with
 * atomic replace and durable append (a database table, an object store) can stand in.
 */
export interface CheckpointStore {
  /** The run's latest checkpoint; undefined when the run is unknown; CheckpointError when damaged. */
  load(runId: string): Promise<Checkpoint | undefined>;
  /**
   * Replace the run's checkpoint atomically: a crash mid-save leaves the previous one whole.
   * Store `redactValue(checkpoint)` (as the built-in stores do): no full card number or
   * credential at rest.
   */
  save(checkpoint: Checkpoint): Promise<void>;
  /** Append one write log entry (an intent or an outcome), redacted like a checkpoint; durable when it resolves. */
  appendWrite(runId: string, entry: WriteLogEntry): Promise<void>;
  /** Every write log entry of the run, oldest first. */
  loadWrites(runId: string): Promise<WriteLogEntry[]>;
  /** Run ids with a checkpoint (sorted by name: timestamped ids come out oldest first). */
  list(): Promise<string[]>;
  /** Where the run's checkpoint lives, for messages (`.checkpoints/<run-id>.json`). */
  describe(runId: string): string;
  /**
   * Take the run's lock so that only one process continues it (RunLockedError when another
   * live process holds it). Stores shared by several processes must implement it.
   */
  lock?(runId: string): Promise<RunLock>;
}

const RUN_ID = /^[\w.-]{1,200}$/;

/** Run ids become file names: letters, digits, `_`, `.`, `-` only. */
export function checkRunId(runId: string): string {
  if (!RUN_ID.test(runId) || runId.startsWith('.')) {
    throw new ConfigError(
      `run id '${runId}' is invalid: use letters, digits, '_', '.' or '-' (no leading dot), e.g. 2026-10-01T09-00-00-000Z-upgraded`,
    );
  }
  return runId;
}

export interface FileCheckpointStoreOptions {
  /** The folder; created on first save. */
  dir: string;
  /** How a checkpoint reaches disk; tests inject a failing writer. Default: temp file + rename. */
  writeFile?: (file: string, data: string) => Promise<void>;
}

/**
 * One `<run-id>.json` checkpoint (replaced atomically), one `<run-id>.writes.jsonl` write
 * log (appended and fsynced) and, while a process works on the run, one `<run-id>.lock`.
 *
 * @example
 * const checkpoints = createFileCheckpointStore({ dir: 'runs/checkpoints' });
 * await runAgent({ ...options, checkpoints });
 */
export function createFileCheckpointStore(options: FileCheckpointStoreOptions): CheckpointStore {
  const { dir } = options;
  const write = options.writeFile ?? writeFileAtomic;
  const checkpointFile = (runId: string) => join(dir, `${checkRunId(runId)}.json`);
  const writesFile = (runId: string) => join(dir, `${checkRunId(runId)}.writes.jsonl`);

  return {
    describe: checkpointFile,
    async lock(runId) {
      await mkdir(dir, { recursive: true });
      return acquireRunLock({ file: join(dir, `${checkRunId(runId)}.lock`), runId });
    },
    async load(runId) {
      const file = checkpointFile(runId);
      const text = await readIfExists(file);
      return text === undefined ? undefined : parseCheckpoint(text, file);
    },
    async save(checkpoint) {
      await write(
        checkpointFile(checkpoint.runId),
        `${JSON.stringify(redactValue(checkpoint), null, 1)}\n`,
      );
    },
    async appendWrite(runId, record) {
      const file = writesFile(runId);
      await mkdir(dir, { recursive: true });
      // Only into a regular file: a FIFO planted at the log's path would otherwise hold the
      // run (no reader) or take the write log (a reader).
      const handle = await openRegularFileHandle(
        file,
        constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT,
        0o644,
      );
      try {
        await handle.write(`${JSON.stringify(redactValue(record))}\n`);
        await handle.datasync();
      } finally {
        await handle.close();
      }
    },
    async loadWrites(runId) {
      const file = writesFile(runId);
      const text = await readIfExists(file);
      if (text === undefined) return [];
      return text
        .split('\n')
        .map((line, index) => ({ line, number: index + 1 }))
        .filter(({ line }) => line.trim() !== '')
        .map(({ line, number }) => parseWriteLogEntry(line, `${file}:${number}`) as WriteLogEntry);
    },
    async list() {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (error) {
        if (isMissing(error)) return [];
        throw error;
      }
      return names
        .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
        .map((name) => name.slice(0, -'.json'.length))
        .sort();
    },
  };
}

/**
 * Checkpoints kept as JSON text in memory: the same parse path as files, for tests and for
 * runs that only need resume within one process.
 */
export function createMemoryCheckpointStore(): CheckpointStore & {
  /** The raw text per run: tests damage it to check the errors. */
  readonly files: Map<string, string>;
} {
  const files = new Map<string, string>();
  const writes = new Map<string, WriteLogEntry[]>();
  return {
    files,
    describe: (runId) => `memory:${runId}.json`,
    async load(runId) {
      const text = files.get(runId);
      return text === undefined ? undefined : parseCheckpoint(text, `memory:${runId}.json`);
    },
    async save(checkpoint) {
      files.set(checkpoint.runId, JSON.stringify(redactValue(checkpoint)));
    },
    async appendWrite(runId, record) {
      writes.set(runId, [...(writes.get(runId) ?? []), redactValue(record) as WriteLogEntry]);
    },
    async loadWrites(runId) {
      return structuredClone(writes.get(runId) ?? []);
    },
    async list() {
      return [...files.keys()];
    },
  };
}

/** A CheckpointError for a run id the store does not know, listing the ones it does. */
export async function unknownRunError(
  store: CheckpointStore,
  runId: string,
): Promise<CheckpointError> {
  const known = await store.list();
  const hint =
    known.length === 0
      ? 'there are no checkpointed runs yet'
      : `known runs: ${known.slice(-5).join(', ')}${known.length > 5 ? ` (and ${known.length - 5} more)` : ''}`;
  return new CheckpointError(
    'checkpoint_missing',
    `no checkpoint for run '${runId}' (looked for ${store.describe(runId)}; ${hint}). Check the run id, or start a new run without --resume.`,
  );
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    // Only a regular file: a FIFO planted at a checkpoint's path would hang the resume.
    return (await readRegularFile(file)).toString('utf8');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}
