import { ConfigError } from '../../core/errors.js';
import type { RunEvalsOptions } from './run-evals.js';
import type { EvalSettings } from './settings.js';

/**
 * Filters that each name something real can still select nothing together
 * (`--task T1 --suite debug`): that is a ConfigError naming the filters and where the task is.
 * `declared` holds every (suite, task, variant) the task files declare, as `keyOf` keys.
 */
export function checkNotEmpty(
  options: Pick<RunEvalsOptions, 'tasks' | 'variants' | 'suites'>,
  declared: ReadonlySet<string>,
  settings: Pick<EvalSettings, 'selects' | 'selectsVariant'>,
): void {
  const rows = [...declared].map((key) => JSON.parse(key) as [string, string, string]);
  const selected = rows.some(
    ([suite, task, variant]) => settings.selects(suite, task) && settings.selectsVariant(variant),
  );
  if (selected || rows.length === 0) return;
  const flags = [
    ['--task', options.tasks],
    ['--variant', options.variants],
    ['--suite', options.suites],
  ]
    .filter((entry): entry is [string, string[]] => entry[1] !== undefined)
    .map(([flag, values]) => `${flag} ${values.join(',')}`)
    .join(' ');
  const asked = new Set((options.tasks ?? []).map((task) => task.toUpperCase()));
  const found = new Map<string, { suite: string; variants: string[] }>();
  for (const [suite, task, variant] of rows) {
    if (!asked.has(task.toUpperCase())) continue;
    const entry = found.get(task) ?? { suite, variants: [] };
    entry.variants.push(variant);
    found.set(task, entry);
  }
  const where = [...found].map(
    ([task, { suite, variants }]) =>
      `${task} is in suite ${suite}, variants ${variants.join(', ')}`,
  );
  const hint = where.length > 0 ? ` (${where.slice(0, 4).join('; ')})` : '';
  throw new ConfigError(
    `${flags} selects no trial: no task matches all of them${hint}; drop or change one of the filters`,
  );
}
