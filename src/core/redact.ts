import { isCardNumber, isCardShapedNumber, maskCardNumber } from './card-numbers.js';
import {
  maskCredentials,
  maskSecretHeaderValues,
  REDACTED,
  SECRET_HEADER_NAMES,
} from './credentials.js';
import { maskSecretValues } from './secret-values.js';
import { maskUserinfoIn } from './shown-url.js';

/**
 * Card numbers masked (`6222****3445`), credential-shaped strings, URLs' userinfo and the values
 * registered with `maskSecretValue` (the configured API key, whatever its shape) replaced, in
 * one text.
 */
export function redactText(text: string): string {
  // A URL's userinfo first (a user-token has no known shape), then exact values: a card or
  // credential mask inside a key would hide it from the match.
  return maskCredentials(maskCardNumber(maskSecretValues(maskUserinfoIn(text))));
}

/** `redactText` plus the values after secret header names: for diffs and reports people read. */
export function redactForDisplay(text: string): string {
  return maskSecretHeaderValues(redactText(text));
}

/**
 * A copy of a JSON-like value with every string passed through `redactText`, the values of
 * secret header keys (`authorization`, `x-api-key`, ...) replaced by `[redacted]`, and numbers
 * that would print as a card number replaced by the masked string (`4111****1111`): records
 * keep no full card number whatever its JSON type. Works on values, never on serialised text,
 * and never throws (a cycle becomes `[circular]`, an unreadable object `[unreadable]`).
 */
export function redactValue(value: unknown): unknown {
  return walk(value, new WeakSet());
}

function walk(value: unknown, seen: WeakSet<object>): unknown {
  switch (typeof value) {
    case 'string':
      return redactText(value);
    case 'number':
      return isCardShapedNumber(value) ? maskCardNumber(String(value)) : value;
    case 'bigint': {
      const digits = value.toString();
      return isCardNumber(digits) ? maskCardNumber(digits) : value;
    }
    case 'object':
      return value === null ? null : walkObject(value, seen);
    default:
      return value;
  }
}

function walkObject(value: object, seen: WeakSet<object>): unknown {
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => walk(item, seen));
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return walk(toJSON.call(value), seen);
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      copy[key] =
        SECRET_HEADER_NAMES.has(key.toLowerCase()) && item !== null && typeof item !== 'object'
          ? REDACTED
          : walk(item, seen);
    }
    return copy;
  } catch {
    return '[unreadable]';
  } finally {
    seen.delete(value);
  }
}

/** A masked credential as `redactText` leaves it: `sk-ant-[redacted]`, `[redacted ANTHROPIC_API_KEY]`. */
const MASKED_SECRET = /\[redacted(?: [A-Z][A-Z0-9_]*(?: password)?)?\]/;

/** Does this JSON value hold a credential as masked (so not its real value)? */
export function holdsMaskedSecret(value: unknown): boolean {
  try {
    return MASKED_SECRET.test(JSON.stringify(value) ?? '');
  } catch {
    return false;
  }
}

/** Credentials (configured values and credential shapes) masked, card numbers kept whole. */
export function maskCredentialsOnly(text: string): string {
  return maskCredentials(maskSecretValues(text));
}
