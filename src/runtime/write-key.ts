import { createHash } from 'node:crypto';
import { canonicalJson } from '../core/canonical-json.js';
import { ConfigError } from '../core/errors.js';
import { redactText } from '../core/redact.js';
import type { RunState, ToolDefinition } from './types.js';

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
    // Keys are printed (the resolve command) and traced, both redacted: a key holding a card
    // number or credential would be shown masked and match nothing. Such a key is hashed.
    if (keptAtRest(business)) return `${tool.name}:${business}`;
    return hashedKey(tool.name, business);
  }
  return hashedKey(tool.name, canonicalJson(args));
}

/** Does the redaction of printed and traced text leave this key as it is? */
export const keptAtRest = (text: string) => redactText(text) === text;

/**
 * `<tool>:<16 hex of the sha256>`. About 3 hashes in 100,000 are all digits that pass the card
 * rule (`save_note:5847656744505590`) and would be masked when printed: only those get a letter no
 * hash holds appended, which a card number cannot touch. Every other key stays as it was, so
 * write logs already on disk keep matching.
 */
function hashedKey(tool: string, text: string): string {
  const key = `${tool}:${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
  if (keptAtRest(key)) return key;
  if (keptAtRest(`${key}z`)) return `${key}z`;
  throw new ConfigError(
    `the write key of ${tool} would be changed by redaction even with a letter appended (does the tool's name look like a card number or a credential?): rename the tool`,
  );
}

/** Holds one key at a time: parallel calls of one turn with the same write key run one after another. */
export type KeyedLock = (key: string) => Promise<() => void>;

export function createKeyedLock(): KeyedLock {
  const tails = new Map<string, Promise<void>>();
  return async (key) => {
    const previous = tails.get(key);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = (previous ?? Promise.resolve()).then(() => held);
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    await previous;
    return release;
  };
}
