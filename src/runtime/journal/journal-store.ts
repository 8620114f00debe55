import { constants } from 'node:fs';
import { chmod, mkdir, open, readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ConfigError } from '../../core/errors.js';
import { openRegularFileHandle } from '../../core/regular-file.js';
import { acquireRunLock, type RunLock, RunLockedError } from '../../core/run-lock.js';
import { journalLine, type ReadJournal, readJournalText } from './journal-text.js';
import { JournalError, type JournalRecord } from './records.js';

/** Where a durable run's records go: appended in order, each durable when its promise resolves. */
export interface JournalSink {
  append(record: JournalRecord): Promise<void>;
  /** The file (or row) the records go to, for messages. */
  readonly source: string;
}

/**
 * Where durable runs keep their journals. The default is a folder of JSONL files; anything
 * with an ordered, durable append (a database table) can stand in.
 */
export interface JournalStore {
  /**
   * A new run's journal, created with its first record (durable when this resolves);
   * `journal_conflict` when the run id has one already.
   */
  create(runId: string, first: JournalRecord): Promise<JournalSink>;
  /**
   * A run's records read back (reading changes nothing), and a sink that appends after them
   * (cutting off a torn last line first); `journal_missing` / `journal_corrupt`.
   */
  open(runId: string): Promise<ReadJournal & { sink: JournalSink }>;
  /** Run ids with a journal, sorted (timestamped ids come out oldest first). */
  list(): Promise<string[]>;
  /** Where the run's journal lives, for messages. */
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

/**
 * One `<run-id>.jsonl` journal per run (mode 0600: it keeps exact values, card numbers
 * included, so that a resumed call runs with what the model sent) and, while a process works on
 * the run, one `<run-id>.lock`. Every append is fsynced before it returns.
 *
 * @example
 * const journals = createFileJournalStore({ dir: 'runs/journals' });
 * await runAgent({ ...options, journals });
 */
export function createFileJournalStore(options: { dir: string }): JournalStore {
  const { dir } = options;
  const file = (runId: string) => join(dir, `${checkRunId(runId)}.jsonl`);
  /** `intact`: the bytes before a torn last line, cut off before the first append. */
  const sink = (path: string, intact?: number): JournalSink => {
    let torn = intact;
    return {
      source: path,
      async append(record) {
        // Only into a regular file: a FIFO planted at the journal's path would hold the run.
        const handle = await openRunFile(path, constants.O_WRONLY | constants.O_APPEND);
        try {
          if (torn !== undefined) {
            if ((await handle.stat()).size > torn) await handle.truncate(torn);
            torn = undefined;
          }
          await handle.write(journalLine(record));
          await handle.datasync();
        } finally {
          await handle.close();
        }
      },
    };
  };
  const store: JournalStore = {
    describe: file,
    async create(runId, first) {
      const path = file(runId);
      await privateFolder(dir);
      let handle: Awaited<ReturnType<typeof openRegularFileHandle>>;
      try {
        handle = await openRunFile(
          path,
          constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
          0o600,
        );
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        throw conflict(runId, path);
      }
      try {
        await handle.write(journalLine(first));
        await handle.datasync();
      } finally {
        await handle.close();
      }
      // The new file's name is durable too: a crash cannot leave a run without its journal.
      await syncFolder(dir);
      return sink(path);
    },
    async open(runId) {
      const path = file(runId);
      const text = await readIfExists(path);
      if (text === undefined) throw await unknownRunError(store, runId);
      const read = readJournalText(text, path, runId);
      // Reading changes nothing: a torn last line is cut off by the first append after it.
      const torn = read.intact.length < text.length ? Buffer.byteLength(read.intact) : undefined;
      return { ...read, sink: sink(path, torn) };
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
        .filter((name) => name.endsWith('.jsonl') && !name.startsWith('.'))
        .map((name) => name.slice(0, -'.jsonl'.length))
        .sort();
    },
    async lock(runId) {
      await privateFolder(dir);
      return acquireRunLock({ file: join(dir, `${checkRunId(runId)}.lock`), runId });
    },
  };
  return store;
}

/**
 * Journals kept as text in memory: the same read path as files, for tests and for runs that
 * only need resume within one process. It locks a run as the file store does: two resumes of
 * one run in this process cannot both continue it.
 */
export function createMemoryJournalStore(): JournalStore & {
  /** The text per run: tests cut and damage it. */
  readonly texts: Map<string, string>;
} {
  const texts = new Map<string, string>();
  const held = new Set<string>();
  const sink = (runId: string, intact?: string): JournalSink => {
    let torn = intact;
    return {
      source: `memory:${runId}.jsonl`,
      async append(record) {
        const before = torn ?? texts.get(runId) ?? '';
        torn = undefined;
        texts.set(runId, `${before}${journalLine(record)}`);
      },
    };
  };
  const store: JournalStore & { readonly texts: Map<string, string> } = {
    texts,
    describe: (runId) => `memory:${runId}.jsonl`,
    async create(runId, first) {
      if (texts.has(runId)) throw conflict(runId, `memory:${runId}.jsonl`);
      texts.set(runId, journalLine(first));
      return sink(runId);
    },
    async open(runId) {
      const text = texts.get(runId);
      if (text === undefined) throw await unknownRunError(store, runId);
      const read = readJournalText(text, `memory:${runId}.jsonl`, runId);
      return { ...read, sink: sink(runId, read.intact) };
    },
    async list() {
      return [...texts.keys()].sort();
    },
    async lock(runId) {
      if (held.has(runId)) {
        throw new RunLockedError(
          `run '${runId}' is being continued by another call in this process; wait for it to end`,
          undefined,
        );
      }
      held.add(runId);
      let mine = true;
      const release = () => {
        if (mine) held.delete(runId);
        mine = false;
      };
      return {
        file: `memory:${runId}.lock`,
        holder: { pid: process.pid, host: 'memory', startedAt: new Date(0).toISOString() },
        release: async () => release(),
        releaseSync: release,
      };
    },
  };
  return store;
}

const conflict = (runId: string, where: string) =>
  new JournalError(
    'journal_conflict',
    `run '${runId}' already has a journal (${where}): another run uses this id; start the new run under another id`,
  );

/** The error for a run id the store does not know, listing the ones it does. */
export async function unknownRunError(store: JournalStore, runId: string): Promise<JournalError> {
  const known = await store.list();
  const hint =
    known.length === 0
      ? 'there are no journaled runs yet'
      : `known runs: ${known.slice(-5).join(', ')}${known.length > 5 ? ` (and ${known.length - 5} more)` : ''}`;
  return new JournalError(
    'journal_missing',
    `no journal for run '${runId}' (looked for ${store.describe(runId)}; ${hint}). Check the run id, or start a new run without --resume.`,
  );
}

/**
 * A run file opened as a regular file, never through a symlink (one planted at its path would
 * send the run's records, exact values included, elsewhere).
 */
async function openRunFile(path: string, flags: number, mode?: number) {
  try {
    return await openRegularFileHandle(path, flags | constants.O_NOFOLLOW, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw error;
    throw new JournalError(
      'journal_corrupt',
      `${path} is a symlink: harness-evals does not read or write run files through links; remove it (or restore the journal it pointed to in its place)`,
    );
  }
}

/** The journals' folder, made private (0700): it holds exact arguments, card numbers included. */
async function privateFolder(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw notAFolder(dir, error);
  }
  if (((await stat(dir)).mode & 0o077) !== 0) await chmod(dir, 0o700);
}

/** A file where the journals' folder (or a folder on its path) should be: one line, not a stack. */
function notAFolder(dir: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code !== 'EEXIST' && code !== 'ENOTDIR') return error;
  return new ConfigError(
    `the journals folder ${dir} is not a folder (a file is in its place or on its path): give a folder with --journals DIR`,
  );
}

async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    const handle = await openRunFile(path, constants.O_RDONLY);
    try {
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw notAFolder(dirname(path), error);
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}
