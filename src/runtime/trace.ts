import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  renameSync,
  rm,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import { errorMessage, HarnessError } from '../core/errors.js';
import { redactValue } from '../core/redact.js';
import { tokenCount } from '../core/token-count.js';
import type { ModelEvent } from '../model-api/model-client.js';
import type { PendingApproval } from './approval-value.js';
import type { RunStats, ToolCallRecord } from './types.js';

/** One line of a run's JSONL trace. Tool result text is never written: lengths only. */
export type TraceEvent =
  | {
      type: 'run_start';
      run_id: string;
      task?: string;
      variant: string;
      model: string;
      mode: string;
      system_chars: number;
      ts: string;
    }
  /** A model call; `role` and `model` are set for calls other than the main loop's (`summarize`). */
  | (ReturnType<typeof modelCallEvent> & { role?: string; model?: string })
  | ReturnType<typeof toolCallEvent>
  | { type: 'run_end'; status: string; detail?: string; stats: RunStats; ts: string }
  /** A retry or a fallback of the model layer, during the model call of `step`. */
  | (ModelEvent & { step: number })
  /** The run continues from its checkpoint after `step` completed steps. */
  | { type: 'run_resume'; run_id: string; step: number; state: string; ts: string }
  /** A call waits for a human's decision; the run is paused (resume it with the decision). */
  | ({ type: 'approval_pending'; step: number } & Omit<PendingApproval, 'id'>)
  /** The run's lock was left by a process that is gone (pid, host, since): this one took it over. */
  | {
      type: 'run_lock_taken_over';
      run_id: string;
      pid: number;
      host: string;
      started_at: string;
      ts: string;
    }
  /** A human decided a write whose outcome was unknown (`--resolve-write`). */
  | { type: 'write_resolved'; key: string; resolution: string; ts: string }
  /** A human's answer to a listed call is durable in the journal (`--approve` / `--reject`). */
  | { type: 'approval_recorded'; hash: string; tool: string; answer: 'yes' | 'no'; ts: string }
  /** Summarising trimmed history failed; the run went on with a plain omission note. */
  | { type: 'summary_skipped'; step: number; error: string };

/** The trace's model_call event of a response. */
export function modelCallEvent(step: number, response: Anthropic.Message, ms: number) {
  return {
    type: 'model_call' as const,
    step,
    stop_reason: response.stop_reason,
    input_tokens: tokenCount(response.usage?.input_tokens),
    output_tokens: tokenCount(response.usage?.output_tokens),
    cache_read_tokens: tokenCount(response.usage?.cache_read_input_tokens),
    cache_write_tokens: tokenCount(response.usage?.cache_creation_input_tokens),
    ms,
  };
}

/** The trace's tool_call event of a finished call: its result's length, never its text. */
export function toolCallEvent(record: ToolCallRecord) {
  return {
    type: 'tool_call' as const,
    step: record.step,
    tool: record.tool,
    // Typed as a trace read back from a file holds them: any value, any text.
    input: record.input ?? (null as unknown),
    decision: record.decision as string,
    is_error: record.isError,
    ms: record.ms,
    result_chars: record.resultChars,
    /** The write's recorded result was returned; the tool did not run again. */
    ...(record.replayed && { replayed: true }),
  };
}

export interface TraceSink {
  write(event: TraceEvent): void;
}

/** A new run's trace file already exists: it belongs to another run and is left as it is. */
export class TraceExistsError extends HarnessError {
  constructor(file: string) {
    super(
      'trace_exists',
      `${file} already exists: it is another run's trace, which a new run never replaces; start the new run under another id`,
    );
  }
}

/**
 * A trace could not be written (a full disk, a sink that throws). The runtime ends the run
 * with status `error` naming it; a run whose first event fails does not start.
 */
export class TraceWriteError extends HarnessError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('trace_write', message, options);
  }
}

/** Runs a file operation of the trace at `file`; a failure names the file (TraceExistsError stays). */
function onTraceFile<T>(file: string, operation: () => T): T {
  try {
    return operation();
  } catch (error) {
    if (error instanceof TraceExistsError) throw error;
    throw new TraceWriteError(`could not write ${file}: ${errorMessage(error)}`, { cause: error });
  }
}

/**
 * Appends each event as it happens, so a crash keeps everything written before it.
 * The file is started empty: one file holds one run. A resumed run passes `append: true`
 * to continue its file. A new run that must not replace another's passes `exclusive: true`:
 * the file is created at the first event (after the run's lock and checkpoint checks), and
 * an existing one is a TraceExistsError. One descriptor per run (not an open per event); it
 * closes at `run_end` or on `close()`, and a later event reopens the file to append.
 */
export function createJsonlTrace(
  file: string,
  options: { append?: boolean; exclusive?: boolean } = {},
): TraceSink & { readonly file: string; close(): void } {
  let created = !options.exclusive;
  let fd: number | undefined = created
    ? onTraceFile(file, () => openTrace(file, options.append ? 'a' : 'w'))
    : undefined;
  const close = () => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
  };
  return {
    file,
    // Every event, not only tool inputs: details and reasons may quote a tool's text.
    write: (event) =>
      onTraceFile(file, () => {
        if (!created) {
          fd = openTrace(file, 'wx');
          created = true;
        }
        fd ??= openTrace(file, 'a');
        try {
          writeWholeLine(fd, Buffer.from(`${JSON.stringify(redactValue(event))}\n`));
        } catch (error) {
          // Not left open for a run that stops here (its run_end is never written).
          close();
          throw error;
        }
        if (event.type === 'run_end') close();
      }),
    close,
  };
}

/**
 * Writes `line` whole, or not at all: a disk that fills up mid-line gets part of it, and
 * that part is cut back off, so the next append (a resume) starts on a line of its own.
 * `fd` must be at the end of its file (every trace write is). `write` is for tests.
 */
export function writeWholeLine(
  fd: number,
  line: Buffer,
  write: (fd: number, line: Buffer) => number = writeSync,
): void {
  const written = write(fd, line);
  if (written === line.length) return;
  ftruncateSync(fd, fstatSync(fd).size - written);
  throw Object.assign(new Error(`wrote ${written} of ${line.length} bytes: the disk is full`), {
    code: 'ENOSPC',
  });
}

/** Appends never follow a symlink planted at the trace's path (`wx` and `w` never do). */
const APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;

function openTrace(file: string, flags: 'a' | 'w' | 'wx'): number {
  const open = () =>
    flags === 'w' ? createEmpty(file) : openSync(file, flags === 'a' ? APPEND : flags, 0o666);
  try {
    return open();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new TraceExistsError(file);
    if (code === 'ELOOP') {
      throw new Error(
        `${file} is a symlink: harness-evals does not write traces through links; remove it`,
      );
    }
    if (code !== 'ENOENT') throw error;
    mkdirSync(dirname(file), { recursive: true });
    try {
      return open();
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code === 'EEXIST') throw new TraceExistsError(file);
      throw again;
    }
  }
}

let replaced = 0;

/**
 * A new empty file at `file`. An old one is renamed aside and deleted in the background:
 * truncating a file that has disk blocks waits on the journal (1-4 ms per file on a busy
 * ext4 volume, more than a whole replayed trial), a rename does not.
 */
function createEmpty(file: string): number {
  try {
    return openSync(file, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  replaced += 1;
  const aside = join(dirname(file), `.${basename(file)}.${process.pid}-${replaced}.old`);
  try {
    renameSync(file, aside);
    rm(aside, { force: true }, () => {});
  } catch {
    // Could not move it (permissions, a race): truncate in place instead.
  }
  return openSync(file, 'w');
}

/**
 * For eval trials: events are kept in memory and `flush()` writes the whole file at once,
 * when the trial ends. A trial is replayed again rather than resumed, so it needs no
 * crash-safe appends, and one write costs less than a write per event.
 */
export function createBufferedJsonlTrace(file: string): TraceSink & {
  readonly file: string;
  flush(): Promise<void>;
  /** The events as the file holds them (redacted), read back from the lines. */
  events(): TraceEvent[];
} {
  const lines: string[] = [];
  return {
    file,
    write: (event) => {
      lines.push(`${JSON.stringify(redactValue(event))}\n`);
    },
    flush: async () => onTraceFile(file, () => rewriteTrace(file, lines.join(''))),
    events: () => lines.map((line) => JSON.parse(line) as TraceEvent),
  };
}

/**
 * Rewrite the file's bytes in place. On ext4 creating, renaming or emptying a file waits
 * on the journal (0.1-0.5 ms each, more than a replayed trial's own work); rewriting the
 * blocks of an existing file does not, and a replayed trial's trace usually has the same
 * length as last time. Not atomic: a trial's trace file is written by its trial only.
 */
function rewriteTrace(file: string, text: string): void {
  const bytes = Buffer.from(text);
  // Only a regular file is rewritten: a symlink or a FIFO planted at the path is moved aside
  // and replaced by a new file (openTrace), never written through.
  const existing = openRegularFile(file);
  const fd = existing?.fd ?? openTrace(file, 'w');
  try {
    writeSync(fd, bytes, 0, bytes.length, 0);
    if ((existing?.size ?? 0) > bytes.length) ftruncateSync(fd, bytes.length);
  } finally {
    closeSync(fd);
  }
}

/** The file opened for rewriting, with its size, when it is a regular file; else undefined. */
function openRegularFile(file: string): { fd: number; size: number } | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDWR | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENXIO') return undefined;
    throw error;
  }
  const stat = fstatSync(fd);
  if (stat.isFile()) return { fd, size: stat.size };
  closeSync(fd);
  return undefined;
}

export function createMemoryTrace(): TraceSink & { readonly events: TraceEvent[] } {
  const events: TraceEvent[] = [];
  // Redacted like the file sink: the one place trace events are redacted is the sink.
  return { events, write: (event) => events.push(redactValue(event) as TraceEvent) };
}
