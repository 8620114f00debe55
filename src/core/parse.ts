import type { z } from 'zod';
import { ConfigError, type HarnessError } from './errors.js';

/**
 * Parse data that crosses a boundary; on failure throw our own error naming the
 * source (a file, a flag) and the first offending field.
 */
export function parseWith<S extends z.ZodType>(
  schema: S,
  data: unknown,
  source: string,
  makeError: (message: string) => HarnessError = (message) => new ConfigError(message),
): z.infer<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  throw makeError(`${source}: ${describeZodIssues(result.error.issues)}`);
}

export function describeZodIssues(
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>,
): string {
  return issues
    .slice(0, 3)
    .map((issue) => {
      const field = issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
      return `${field}: ${issue.message}`;
    })
    .join('; ');
}
