import { createHash } from 'node:crypto';
import { canonicalJson } from '../core/canonical-json.js';

/**
 * What a person is asked to approve, and all an approval binds: the tool, its arguments after
 * every PreToolUse hook, and (a write of a durable run) its idempotency key.
 */
export interface ApprovalValue {
  tool: string;
  input: unknown;
  key?: string | undefined;
}

/** A call that waits for a human's decision: the value the human is asked about, and its hash. */
export interface PendingApproval extends ApprovalValue {
  id: string;
  reason: string;
  /** What an approval names (`--approve HASH`) and binds. */
  hash: string;
  /** Asked again because the value differs from the one answered before: what changed. */
  changed?: string;
}

/** The value's short hash: kept in the `approval` record, shown in listings, named by `--approve`. */
export function approvalHash(value: ApprovalValue): string {
  const { tool, input, key } = value;
  return createHash('sha256')
    .update(canonicalJson({ tool, input, key }))
    .digest('hex')
    .slice(0, 12);
}

/** A line naming what differs between the value that was answered and the one that would run. */
export function whatChanged(before: ApprovalValue | undefined, after: ApprovalValue): string {
  if (!before) return 'changed since it was answered (the answer kept no value)';
  const parts: string[] = [];
  if (before.tool !== after.tool) parts.push('the tool');
  const was = fields(before.input);
  const now = fields(after.input);
  for (const name of new Set([...Object.keys(was), ...Object.keys(now)])) {
    if (canonicalJson(was[name]) !== canonicalJson(now[name])) parts.push(`argument ${name}`);
  }
  if (before.key !== after.key) parts.push('the write key');
  return `changed since it was answered: ${parts.join(', ') || 'its value'}`;
}

const fields = (input: unknown): Record<string, unknown> =>
  input !== null && typeof input === 'object' && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : { '(arguments)': input };
