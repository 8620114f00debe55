import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../../core/errors.js';

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

/** What a run selects, as its flags say it. */
export interface ReferenceSelection {
  tasks?: readonly string[] | undefined;
  variants?: readonly string[] | undefined;
  suites?: readonly string[] | undefined;
  cases?: readonly string[] | undefined;
  caseSample?: number | undefined;
}

/**
 * `--update-reference` writes this run's report as the reference. From a run of part of the
 * suite (`--task`, `--variant`, `--suite`), that report holds only the selected rows, and the
 * reference would lose every other row's baseline: refused, before anything runs or is written.
 * `selects` names whose selection it is: "this run selects" or "the shards select".
 */
export function checkWholeSuiteReference(
  selection: ReferenceSelection,
  updateReference: boolean | undefined,
  selects: string,
): void {
  if (!updateReference) return;
  const flags = (
    [
      ['--task', selection.tasks],
      ['--variant', selection.variants],
      ['--suite', selection.suites],
      ['--case', selection.cases],
      ['--cases', selection.caseSample === undefined ? undefined : [String(selection.caseSample)]],
    ] as const
  )
    .filter(([, values]) => values !== undefined && values.length > 0)
    .map(([flag, values]) => `${flag} ${values!.join(',')}`);
  if (flags.length === 0) return;
  throw new ConfigError(
    `--update-reference makes the reference from the whole suite, and ${selects} ${flags.join(' ')}: the new reference would lose the baselines of everything else. Drop the selection, or leave out --update-reference`,
  );
}
