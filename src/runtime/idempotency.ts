import { createHash } from 'node:crypto';
import { canonicalJson } from '../core/canonical-json.js';
import { ConfigError } from '../core/errors.js';
import { redactText } from '../core/redact.js';
import type { Decision, RunState, ToolDefinition } from './types.js';

/** One executed write: what ran, under which key, and the result the model was given. */
export interface WriteRecord {
  /** `<tool>:<business key or argument hash>`, unique within the run. */
  key: string;
  tool: string;
  input: unknown;
  /** The tool's output as the pipeline serialised it, before PostToolUse hooks and truncation. */
  output: string;
  /** How it was let through: `allow` or `ask_approved`. */
  decision: Decision;
  step: number;
  /** ISO time from the run's clock. */
  at: string;
}

/**
 * Logged, durably, before a write is executed. An intent without a later outcome means the
 * write may or may not have taken effect (it timed out, or the process died): it is never run
 * again automatically; a human resolves it (`resolve`).
 */
export interface WriteIntent {
  kind: 'intent';
  key: string;
  tool: string;
  input: unknown;
  decision: Decision;
  step: number;
  at: string;
}

/**
 * Closes an intent without an outcome: the tool threw (`tool_failed`), the run was cancelled
 * before the tool was called (`run_cancelled`), or a human said retry.
 */
export interface WriteCleared {
  kind: 'cleared';
  key: string;
  reason: 'tool_failed' | 'run_cancelled' | 'human_retry';
  at: string;
}

/** One line of the write log: an intent, an outcome (a `WriteRecord`) or a cleared intent. */
export type WriteLogEntry = WriteRecord | WriteIntent | WriteCleared;

/** An outcome (an executed write), not an intent or a cleared intent. */
export function isWriteOutcome(entry: WriteLogEntry): entry is WriteRecord {
  return !('kind' in entry);
}

/** What a human decided about a write whose outcome is unknown. */
export type WriteResolution = 'done' | 'retry';

/** The output recorded for a write a human marked done: its real result was never seen. */
export const RESOLVED_DONE_OUTPUT =
  'This write was already made earlier in this run (a human confirmed that it took effect; its result was not recorded). Do not make it again.';

/**
 * The run's durable record of writes. Every method that writes is durable when it resolves:
 * a crash after `intend` leaves an unknown outcome, never a silent second execution.
 */
export interface WriteLog {
  /** The outcome of an executed write. */
  get(key: string): WriteRecord | undefined;
  /** The intent of a write whose outcome is unknown (timed out, interrupted, still running). */
  unresolved(key: string): WriteIntent | undefined;
  /** Every write whose outcome is unknown, oldest first. */
  unresolvedList(): readonly WriteIntent[];
  /** Log that the write is about to run. */
  intend(intent: Omit<WriteIntent, 'kind'>): Promise<void>;
  /** Log the outcome of a write that ran. */
  record(record: WriteRecord): Promise<void>;
  /** The tool threw, or was never called: the write did not happen, so a later call may run it. */
  failed(key: string, at: string, reason?: 'tool_failed' | 'run_cancelled'): Promise<void>;
  /**
   * Why the write's intent was last cleared, while nothing came after it (no new intent, no
   * outcome); undefined otherwise. Optional for write logs made before it existed.
   */
  cleared?(key: string): WriteCleared['reason'] | undefined;
  /**
   * A human's decisions about unresolved writes, by key. All or nothing: every key is checked
   * before the first decision is logged, so one mistyped key leaves the log as it was.
   */
  resolve(decisions: Readonly<Record<string, WriteResolution>>, at: string): Promise<void>;
  /** Executed writes (outcomes), oldest first. */
  list(): readonly WriteRecord[];
}

/**
 * The idempotency key of a write within its run: the tool's business key when it declares one
 * (`resubmit_refund:ORD1001:resubmit`), else a hash of the canonical arguments. Never the
 * tool_use id: a resumed model call may resend the same write under a new id.
 */
export function idempotencyKeyFor(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  run: RunState,
): string {
  const business: unknown = tool.idempotencyKey?.(args as never, run);
  if (business !== undefined) {
    if (typeof business !== 'string') {
      const got = business === null ? 'null' : `a ${typeof business}`;
      throw new ConfigError(
        `the idempotencyKey of ${tool.name} returned ${got}, not a string (or undefined for a hash of the arguments)`,
      );
    }
    // The write log is redacted at rest: a key holding a card number or credential would come
    // back masked and no longer match, so the write could run twice. Such a key is hashed.
    if (keptAtRest(business)) return `${tool.name}:${business}`;
    return hashedKey(tool.name, business);
  }
  return hashedKey(tool.name, canonicalJson(args));
}

/** Does the redaction at rest (of the write log, of a checkpoint's values) leave this text as it is? */
export const keptAtRest = (text: string) => redactText(text) === text;

/**
 * `<tool>:<16 hex of the sha256>`. About 3 hashes in 100,000 are all digits that pass the card
 * rule (`save_note:5847656744505590`) and would be masked at rest: only those get a letter no
 * hash holds appended, which a card number cannot touch. Every other key stays as it was, so
 * write logs already on disk keep matching.
 */
function hashedKey(tool: string, text: string): string {
  const key = `${tool}:${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
  if (keptAtRest(key)) return key;
  if (keptAtRest(`${key}z`)) return `${key}z`;
  throw new ConfigError(
    `the write key of ${tool} would be changed by the redaction of the write log even with a letter appended (does the tool's name look like a card number or a credential?): rename the tool`,
  );
}

/**
 * A write log over entries already on disk (or in a database) and a durable `append`.
 * The first outcome of a key wins; a later one for the same key is ignored.
 *
 * @example
 * const writes = createWriteLog(await store.loadWrites(runId), (entry) => store.appendWrite(runId, entry));
 */
export function createWriteLog(
  initial: readonly WriteLogEntry[],
  append: (entry: WriteLogEntry) => Promise<void>,
): WriteLog {
  const done = new Map<string, WriteRecord>();
  const pending = new Map<string, WriteIntent>();
  const clearedBy = new Map<string, WriteCleared['reason']>();
  const apply = (entry: WriteLogEntry) => {
    if (isWriteOutcome(entry)) {
      if (!done.has(entry.key)) done.set(entry.key, entry);
      pending.delete(entry.key);
      clearedBy.delete(entry.key);
    } else if (entry.kind === 'intent') {
      if (!done.has(entry.key)) pending.set(entry.key, entry);
      clearedBy.delete(entry.key);
    } else {
      pending.delete(entry.key);
      clearedBy.set(entry.key, entry.reason);
    }
  };
  const write = async (entry: WriteLogEntry) => {
    await append(entry);
    apply(entry);
  };
  for (const entry of initial) apply(entry);
  return {
    get: (key) => done.get(key),
    unresolved: (key) => pending.get(key),
    unresolvedList: () => [...pending.values()],
    cleared: (key) => clearedBy.get(key),
    intend: (intent) => write({ kind: 'intent', ...intent }),
    async record(record) {
      if (done.has(record.key)) return;
      await write(record);
    },
    failed: (key, at, reason = 'tool_failed') => write({ kind: 'cleared', key, reason, at }),
    async resolve(decisions, at) {
      const unknown = Object.keys(decisions).filter((key) => !pending.has(key));
      if (unknown.length > 0) {
        const waiting = [...pending.keys()];
        throw new ConfigError(
          `no write with an unknown outcome has the key ${unknown.map((key) => `'${key}'`).join(', ')}; ${waiting.length === 0 ? 'no write of this run waits for a decision' : `writes waiting for a decision: ${waiting.join(', ')}`} (nothing was recorded)`,
        );
      }
      for (const [key, resolution] of Object.entries(decisions)) {
        if (resolution === 'retry') {
          await write({ kind: 'cleared', key, reason: 'human_retry', at });
          continue;
        }
        const { kind: _intent, ...made } = pending.get(key)!;
        await write({ ...made, output: RESOLVED_DONE_OUTPUT, at });
      }
    },
    list: () => [...done.values()],
  };
}

/** Runs tasks of the same key one after another, so parallel calls of one turn cannot both write. */
export function createKeyedQueue(): <T>(
  key: string | undefined,
  task: () => Promise<T>,
) => Promise<T> {
  const tails = new Map<string, Promise<unknown>>();
  return (key, task) => {
    if (key === undefined) return task();
    const previous = tails.get(key) ?? Promise.resolve();
    const next = previous.then(task, task);
    const tail = next.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return next;
  };
}
