import { ConfigError } from '../../core/errors.js';

/** One row of a run (suite, task, variant) as a string key, the same for equal rows. */
export function keyOf(row: { suite: string; task: string; variant: string }): string {
  return JSON.stringify([row.suite, row.task, row.variant]);
}

/** What the run's task files declared and what failed while loading them (the EvalReporter's view). */
export interface DeclaredByRun {
  readonly loadErrors: readonly string[];
  readonly runErrors: readonly string[];
  readonly knownTasks: ReadonlySet<string>;
  readonly knownVariants: ReadonlySet<string>;
  readonly knownSuites: ReadonlySet<string>;
  readonly declared: ReadonlySet<string>;
  readonly cases: ReadonlyMap<string, { all: readonly string[] }>;
}

/** What `--task`, `--variant` and `--suite` asked for; an empty or absent list picks everything. */
export interface Selection {
  tasks?: readonly string[] | undefined;
  variants?: readonly string[] | undefined;
  suites?: readonly string[] | undefined;
  /** `--case`: case ids of dataset tasks. */
  cases?: readonly string[] | undefined;
}

/** Which (suite, task) and which variants a selection picks. */
export interface SelectionFilter {
  selects(suite: string, task: string): boolean;
  selectsVariant(variant: string): boolean;
}

/**
 * Filters that each name something real can still select nothing together
 * (`--task T1 --suite debug`): that is a ConfigError naming the filters and where the task is.
 * `declared` holds every (suite, task, variant) the task files declare, as `keyOf` keys.
 */
export function checkNotEmpty(
  options: Selection,
  declared: ReadonlySet<string>,
  settings: SelectionFilter,
): void {
  const rows = [...declared].map((key) => JSON.parse(key) as [string, string, string]);
  const picks = (filter: SelectionFilter) =>
    rows.some(
      ([suite, task, variant]) => filter.selects(suite, task) && filter.selectsVariant(variant),
    );
  if (rows.length === 0 || picks(settings)) return;
  const given = (
    [
      ['--task', 'tasks'],
      ['--variant', 'variants'],
      ['--suite', 'suites'],
    ] as const
  ).filter(([, field]) => options[field] !== undefined);
  const flags = given.map(([flag, field]) => `${flag} ${options[field]!.join(',')}`);
  // The filter that emptied it: without it alone, the others select a trial.
  const culprits = given
    .filter(([, field]) => picks(selectionFilter({ ...options, [field]: undefined })))
    .map(([flag, field]) => `${flag} ${options[field]!.join(',')}`);
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
  const why =
    culprits.length > 0
      ? `${culprits.join(' or ')} leaves out every trial the other filters pick${hint}; drop or change ${culprits.length === 1 ? 'it' : 'one of them'}`
      : `no task matches all of them${hint}; drop or change one of the filters`;
  throw new ConfigError(`${flags.join(' ')} selects no trial: ${why}`);
}

/**
 * `--suite NAME` selects the suite of that name or, as a shorthand, every suite whose name
 * starts with it (case-insensitive): `--suite debug` runs `debug-agent`. The eval run
 * refuses a name that matched more than one suite (checkSuites, below), so a suite whose
 * name starts another's (`debug`, `debug-agent`) needs a name that tells them apart.
 */
export function suiteMatches(asked: string, suite: string): boolean {
  return suite.toLowerCase().startsWith(asked.toLowerCase());
}

/**
 * Which (suite, task) and which variants a selection picks: `--suite` by name or prefix,
 * `--task` case-blind, `--variant` exactly; an empty list picks everything.
 */
export function selectionFilter(selection: Selection): SelectionFilter {
  const tasks = new Set((selection.tasks ?? []).map((task) => task.toUpperCase()));
  const variants = new Set(selection.variants ?? []);
  const suites = selection.suites ?? [];
  return {
    selects: (suite, task) =>
      (suites.length === 0 || suites.some((asked) => suiteMatches(asked, suite))) &&
      (tasks.size === 0 || tasks.has(task.toUpperCase())),
    selectsVariant: (variant) => variants.size === 0 || variants.has(variant),
  };
}

/** The names asked for that are not known, case-blind. */
export function missingNames(asked: readonly string[], known: ReadonlySet<string>): string[] {
  const upper = new Set([...known].map((name) => name.toUpperCase()));
  return asked.filter((name) => !upper.has(name.toUpperCase()));
}

/** The rows (as keyOf keys) the run's selection leaves out. */
export function unselectedRows(
  rows: ReadonlyArray<{ suite: string; task: string; variant: string }>,
  options: Selection,
): string[] {
  const { selects, selectsVariant } = selectionFilter(options);
  return rows
    .filter((row) => !(selects(row.suite, row.task) && selectsVariant(row.variant)))
    .map(keyOf);
}

/** An unknown task, variant or suite is a typo, not an empty success. */
export function checkSelection(
  options: Selection,
  reporter: DeclaredByRun,
  filter: SelectionFilter,
): void {
  const failures = [...reporter.loadErrors, ...reporter.runErrors];
  const listed = failures.map((error) => `\n  ${error}`).join('');
  if (reporter.knownTasks.size === 0 && reporter.runErrors.length > 0) {
    // Not "unknown task": nothing was declared because the run itself failed.
    throw new Error(`the eval run failed before any task was declared:${listed}`);
  }
  const unknown = (
    asked: readonly string[] | undefined,
    known: ReadonlySet<string>,
    what: string,
  ) => {
    const missing = missingNames(asked ?? [], known);
    if (missing.length > 0) {
      // A task declared in a file that failed to load is not a typo: say which files failed.
      const failed =
        failures.length > 0 ? `; it may be declared where the run failed:${listed}` : '';
      throw new ConfigError(
        `unknown ${what} ${missing.join(', ')}: known ${what}s are ${[...known].sort().join(', ') || '(none)'}${failed}`,
      );
    }
  };
  unknown(options.tasks, reporter.knownTasks, 'task');
  unknown(options.variants, reporter.knownVariants, 'variant');
  checkSuites(options.suites ?? [], reporter.knownSuites);
  checkCases(options.cases ?? [], reporter.cases);
  if (reporter.loadErrors.length === 0 && reporter.knownTasks.size === 0) {
    throw new ConfigError(
      'no eval tasks found: add evals/<name>.eval.ts files that call defineTask',
    );
  }
  checkNotEmpty(options, reporter.declared, filter);
}

/** Each --case id must be a case of some dataset task the run declared. */
function checkCases(
  asked: readonly string[],
  cases: ReadonlyMap<string, { all: readonly string[] }>,
): void {
  if (asked.length === 0) return;
  if (cases.size === 0) {
    throw new ConfigError(
      `--case ${asked.join(',')}: no selected task runs over cases (a task with cases: [...] or a dataset file)`,
    );
  }
  const known = new Set([...cases.values()].flatMap((entry) => entry.all));
  const missing = missingNames(asked, known);
  if (missing.length === 0) return;
  const listed = [...known].sort();
  const shown =
    listed.length > 12
      ? `${listed.slice(0, 12).join(', ')}, ... (${listed.length})`
      : listed.join(', ');
  throw new ConfigError(`unknown case ${missing.join(', ')}: known cases are ${shown}`);
}

/** Each --suite name must pick exactly one suite: its full name or a unique prefix of it. */
function checkSuites(asked: readonly string[], known: ReadonlySet<string>): void {
  const names = [...known].sort();
  for (const name of asked) {
    const matched = names.filter((suite) => suiteMatches(name, suite));
    if (matched.length === 0) {
      throw new ConfigError(
        `unknown suite ${name}: known suites are ${names.join(', ') || '(none)'}`,
      );
    }
    if (matched.length > 1) {
      throw new ConfigError(
        `--suite ${name} is ambiguous: it matches ${matched.join(', ')}; give more of the name`,
      );
    }
  }
}
