import { canonicalJson } from '../../core/canonical-json.js';
import { maximumMatching } from './matching.js';

/**
 * How a call's arguments are compared with the expected ones:
 * - `exact`: equal JSON (key order aside);
 * - `ignore`: the tool name is enough;
 * - `subset`: the actual arguments are a subset of the expected (every key it has is expected, with that value);
 * - `superset`: the actual arguments hold every expected key with its value (more keys are fine);
 * - `fuzzy`: like superset, at any depth, with text compared case- and whitespace-blind,
 *   numbers (and numeric text) within `tolerance`, and arrays in any order;
 * - a function `(expected, actual) => boolean`.
 */
export type ArgsMode =
  | 'exact'
  | 'ignore'
  | 'subset'
  | 'superset'
  | 'fuzzy'
  | ((expected: unknown, actual: unknown) => boolean);

export const ARGS_MODES = ['exact', 'ignore', 'subset', 'superset', 'fuzzy'] as const;

/** Default absolute tolerance of `fuzzy` numbers (vitest-evals uses the same). */
export const DEFAULT_TOLERANCE = 0.001;

const same = (left: unknown, right: unknown) => {
  try {
    return canonicalJson(left) === canonicalJson(right);
  } catch {
    return false;
  }
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every key of `inner` is in `outer` with an equal value. */
function within(inner: unknown, outer: unknown): boolean {
  if (!isRecord(inner) || !isRecord(outer)) return same(inner, outer);
  return Object.entries(inner).every(([key, value]) => key in outer && same(value, outer[key]));
}

function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i.test(value)) {
    return Number(value);
  }
  return undefined;
}

const text = (value: string) => value.trim().replace(/\s+/g, ' ').toLowerCase();

/** `fuzzy`: case, whitespace, numeric tolerance and array order do not count; extra keys are fine. */
export function fuzzyEqual(expected: unknown, actual: unknown, tolerance: number): boolean {
  const [left, right] = [asNumber(expected), asNumber(actual)];
  if (left !== undefined && right !== undefined) return Math.abs(left - right) <= tolerance;
  if (typeof expected === 'string' && typeof actual === 'string')
    return text(expected) === text(actual);
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) return false;
    const pairs = maximumMatching(expected.length, actual.length, (i, j) =>
      fuzzyEqual(expected[i], actual[j], tolerance),
    );
    return pairs.length === expected.length;
  }
  if (isRecord(expected) && isRecord(actual)) {
    return Object.entries(expected).every(
      ([key, value]) => key in actual && fuzzyEqual(value, actual[key], tolerance),
    );
  }
  return same(expected, actual);
}

/** Do the actual arguments match the expected ones under `mode`? */
export function argsMatch(
  mode: ArgsMode,
  expected: unknown,
  actual: unknown,
  tolerance = DEFAULT_TOLERANCE,
): boolean {
  if (typeof mode === 'function') return mode(expected, actual);
  switch (mode) {
    case 'ignore':
      return true;
    case 'subset':
      return within(actual, expected);
    case 'superset':
      return within(expected, actual);
    case 'fuzzy':
      return fuzzyEqual(expected, actual, tolerance);
    default:
      return same(expected, actual);
  }
}
