import { createHash } from 'node:crypto';
import { canonicalJson } from '../core/canonical-json.js';
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
 * The run's durable record of executed writes. `record` must be durable when it resolves:
 * a crash after it cannot make the write run twice.
 */
export interface WriteLog {
  get(key: string): WriteRecord | undefined;
  record(record: WriteRecord): Promise<void>;
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
  const business = tool.idempotencyKey?.(args as never, run);
  if (business !== undefined) return `${tool.name}:${business}`;
  const hash = createHash('sha256').update(canonicalJson(args)).digest('hex').slice(0, 16);
  return `${tool.name}:${hash}`;
}

/**
 * A write log over records already on disk (or in a database) and a durable `append`.
 * The first record of a key wins; a later one for the same key is ignored.
 *
 * @example
 * const writes = createWriteLog(await store.loadWrites(runId), (record) => store.appendWrite(runId, record));
 */
export function createWriteLog(
  initial: readonly WriteRecord[],
  append: (record: WriteRecord) => Promise<void>,
): WriteLog {
  const byKey = new Map<string, WriteRecord>();
  for (const record of initial) if (!byKey.has(record.key)) byKey.set(record.key, record);
  return {
    get: (key) => byKey.get(key),
    async record(record) {
      if (byKey.has(record.key)) return;
      await append(record);
      byKey.set(record.key, record);
    },
    list: () => [...byKey.values()],
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
