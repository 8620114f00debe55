import { canonicalize } from '../core/canonical-json.js';
import { redactForDisplay, redactValue } from '../core/redact.js';
import { lineDiff } from './line-diff.js';

/** A pure function applied to both the recorded and the live body before they are compared. */
export type Normaliser = (body: unknown) => unknown;

/** Where a live request body first departs from the recorded one. */
export interface Divergence {
  /** JSON pointer (RFC 6901) into the body, e.g. `/system/0/text`; `''` is the whole body. */
  pointer: string;
  /** `undefined` when the recorded body has nothing there. */
  recorded: unknown;
  /** `undefined` when the live body has nothing there. */
  live: unknown;
  /** A short line diff (- recorded / + live) when the values are long strings. */
  diff?: string;
}

const LONG_STRING = 80;
const MAX_VALUE_CHARS = 200;

/**
 * Compare two request bodies after applying the normalisers to both; return the
 * first difference (object keys in sorted order, arrays by index) or `undefined`.
 *
 * @example findDivergence(recorded.body, live.body)?.pointer // '/tools/1/input_schema/properties/order_id/pattern'
 */
export function findDivergence(
  recorded: unknown,
  live: unknown,
  options: { normalisers?: readonly Normaliser[] } = {},
): Divergence | undefined {
  const normalisers = options.normalisers ?? [];
  const before = normalise(recorded, normalisers);
  const after = normalise(live, normalisers);
  // Equal bodies (every replayed request) cost one walk without building pointers or key sets.
  return sameJson(before, after) ? undefined : firstDifference(before, after, '');
}

/** Deep equality of JSON values, object keys in any order. */
function sameJson(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!sameJson(a[index], b[index])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let count = 0;
  for (const key in left) {
    if (!Object.hasOwn(left, key)) continue;
    if (!Object.hasOwn(right, key) || !sameJson(left[key], right[key])) return false;
    count++;
  }
  for (const key in right) if (Object.hasOwn(right, key)) count--;
  return count === 0;
}

export function normalise(body: unknown, normalisers: readonly Normaliser[]): unknown {
  return normalisers.reduce((value, normaliser) => normaliser(value), body);
}

/** Both values on their own lines, or the line diff for long strings. */
export function describeDivergence(divergence: Divergence): string {
  if (divergence.diff !== undefined) return divergence.diff;
  return [
    `- recorded: ${formatValue(divergence.recorded)}`,
    `+ live:     ${formatValue(divergence.live)}`,
  ].join('\n');
}

/** A value as JSON for messages: card numbers, credentials and secret header values masked. */
export function formatValue(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = redactForDisplay(JSON.stringify(redactValue(canonicalize(value))));
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}...` : text;
}

function firstDifference(
  recorded: unknown,
  live: unknown,
  pointer: string,
): Divergence | undefined {
  if (Object.is(recorded, live)) return undefined;
  if (Array.isArray(recorded) && Array.isArray(live)) {
    const length = Math.max(recorded.length, live.length);
    for (let index = 0; index < length; index++) {
      const found = firstDifference(recorded[index], live[index], `${pointer}/${index}`);
      if (found) return found;
    }
    return undefined;
  }
  if (isPlainObject(recorded) && isPlainObject(live)) {
    const keys = [...new Set([...Object.keys(recorded), ...Object.keys(live)])].sort();
    for (const key of keys) {
      const found = firstDifference(recorded[key], live[key], `${pointer}/${escapeToken(key)}`);
      if (found) return found;
    }
    return undefined;
  }
  const divergence: Divergence = { pointer, recorded, live };
  if (typeof recorded === 'string' && typeof live === 'string' && isLong(recorded, live)) {
    divergence.diff = redactedLineDiff(recorded, live);
  }
  return divergence;
}

/** Diffs reach reports/latest.md: compare the masked texts, and say when only masked parts differ. */
function redactedLineDiff(recorded: string, live: string): string {
  const before = redactForDisplay(recorded);
  const after = redactForDisplay(live);
  if (before === after) {
    return '  (the texts differ only inside a masked card number or credential)';
  }
  return lineDiff(before, after);
}

function isLong(a: string, b: string): boolean {
  return a.length > LONG_STRING || b.length > LONG_STRING || a.includes('\n') || b.includes('\n');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function escapeToken(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}
