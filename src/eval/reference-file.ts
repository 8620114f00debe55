import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The report a run compares with: `--compare FILE` (which must then exist), else the
 * committed `reports/reference.json` when there is one. Undefined: nothing to compare.
 * Cheap (no schema): a run asks it before it loads the report side.
 */
export function referenceFileOf(
  projectDir: string,
  compare: string | undefined,
): string | undefined {
  if (compare) return resolve(compare);
  const committed = join(projectDir, 'reports', 'reference.json');
  return existsSync(committed) ? committed : undefined;
}
