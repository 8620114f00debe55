import { ConfigError } from '../core/errors.js';

/** A positive whole number flag, or a ConfigError naming the flag. */
export function positiveInteger(
  flag: string,
  value: string | undefined,
  fallback: number,
  max = 1000,
): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(number) || number < 1 || number > max) {
    throw new ConfigError(`${flag} takes a whole number from 1 to ${max}, got '${value}'`);
  }
  return number;
}

/** A comma-separated list flag (`--task T1,T4`). */
export function listFlag(value: string | undefined): string[] | undefined {
  const items = value
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  return items && items.length > 0 ? items : undefined;
}

export function oneOf<T extends string>(
  flag: string,
  value: string | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new ConfigError(`${flag} takes one of ${allowed.join(' | ')}, got '${value}'`);
}

/** A number strictly between 0 and 1 (`--alpha 0.05`), or a ConfigError naming the flag. */
export function fraction(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0 || number >= 1) {
    throw new ConfigError(
      `${flag} takes a number between 0 and 1 (e.g. ${flag} 0.05), got '${value}'`,
    );
  }
  return number;
}
