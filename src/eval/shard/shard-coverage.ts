import { ConfigError } from '../../core/errors.js';
import { selectionFilter } from '../spec/selection.js';
import type { TrialRecord } from '../spec/trial-record.js';
import type { ShardResult, ShardSelection } from './shard-result-schema.js';

type Row = [suite: string, task: string, variant: string];

/** A name from a shard file as it may be printed: quoted, escapes and all, unless it is plain. */
export function shownName(name: string): string {
  return /^[\w.@/-]+$/.test(name) ? name : JSON.stringify(name);
}

/** The flags that made this selection, as `npm run eval` takes them (`rows`: only the filters). */
export function selectionFlags(selection: ShardSelection, only?: 'rows'): string {
  return [
    only !== 'rows' &&
      (selection.trialNumbers
        ? `--trial ${selection.trialNumbers.join(',')}`
        : `--trials ${selection.trials}`),
    selection.tasks && `--task ${selection.tasks.join(',')}`,
    selection.variants && `--variant ${selection.variants.join(',')}`,
    selection.suites && `--suite ${selection.suites.join(',')}`,
    only !== 'rows' && selection.matching === 'lenient' && '--replay lenient',
  ]
    .filter(Boolean)
    .join(' ');
}

function rowsOf(file: string, declared: readonly string[]): Row[] {
  return declared.map((key) => {
    let row: unknown;
    try {
      row = JSON.parse(key);
    } catch {
      row = undefined;
    }
    if (!Array.isArray(row) || row.length !== 3 || !row.every((item) => typeof item === 'string')) {
      throw new ConfigError(
        `${file}: declared holds ${JSON.stringify(key).slice(0, 80)}, not a ["suite","task","variant"] row; re-run that shard`,
      );
    }
    return row as Row;
  });
}

const trialKey = (suite: string, task: string, variant: string, trial: number, testCase?: string) =>
  JSON.stringify([suite, task, variant, testCase ?? null, trial]);

/** "T3 baseline trials 1, 2, 3, T1 upgraded trial 2", at most ten rows. */
function listTrials(
  trials: ReadonlyArray<{ task: string; variant: string; trial: number; case?: string }>,
) {
  const byRow = new Map<string, number[]>();
  for (const { task, variant, trial, case: testCase } of trials) {
    const row = `${shownName(task)} ${shownName(variant)}${testCase === undefined ? '' : ` case ${shownName(testCase)}`}`;
    byRow.set(row, [...(byRow.get(row) ?? []), trial]);
  }
  const rows = [...byRow].map(
    ([row, numbers]) => `${row} trial${numbers.length === 1 ? '' : 's'} ${numbers.join(', ')}`,
  );
  return rows.length > 10
    ? `${rows.slice(0, 10).join(', ')} and ${rows.length - 10} more rows`
    : rows.join(', ');
}

/**
 * The merged records must be exactly the trials the shards' selection picks from the rows
 * their task files declare: a trial no shard has would drop out of the scores (2/3 would read
 * 2/2), and a record outside the selection would count a trial no one asked for. Refuses
 * either with a ConfigError naming the trials and the fix. A missing trial is let through only
 * when a shard reported errors (a trial that hung, a file that failed to load): those fail the
 * gate anyway, and the returned reason names the missing trials beside them.
 */
export function checkShardCoverage(
  results: ReadonlyArray<{ file: string; result: ShardResult }>,
  records: ReadonlyArray<{ file: string; record: TrialRecord }>,
): string[] {
  const [first] = results;
  if (!first) return [];
  const { selection } = first.result;
  const flags = selectionFlags(selection);
  const count = first.result.shard.count;
  const rerun = `re-run the shards of this run (npm run eval -- ${flags} --shard i/${count}, for each i) and merge again`;
  const trialNumbers = selection.trialNumbers
    ? [...new Set(selection.trialNumbers)].sort((a, b) => a - b)
    : Array.from({ length: selection.trials }, (_, index) => index + 1);
  if (first.result.trials !== trialNumbers.length) {
    throw new ConfigError(
      `cannot merge: ${first.file} says ${first.result.trials} trials per task and variant, but its selection (${flags}) picks ${trialNumbers.length}; ${rerun}`,
    );
  }
  const declared = new Map<string, Row>();
  for (const { file, result } of results) {
    for (const row of rowsOf(file, result.declared)) declared.set(JSON.stringify(row), row);
  }
  const filter = selectionFilter(selection);
  // A dataset task's trials are per case: the cases its selection picked, as the shards say.
  const casesOf = new Map<string, string[]>();
  for (const { result } of results) {
    for (const [task, cases] of Object.entries(result.cases ?? {})) casesOf.set(task, cases);
  }
  const expected = new Map<
    string,
    { task: string; variant: string; trial: number; case?: string }
  >();
  for (const [suite, task, variant] of declared.values()) {
    if (!filter.selects(suite, task) || !filter.selectsVariant(variant)) continue;
    for (const testCase of casesOf.get(JSON.stringify([suite, task])) ?? [undefined]) {
      for (const trial of trialNumbers) {
        expected.set(trialKey(suite, task, variant, trial, testCase), {
          task,
          variant,
          trial,
          ...(testCase !== undefined && { case: testCase }),
        });
      }
    }
  }

  const extra: string[] = [];
  for (const { file, record } of records) {
    const { suite, task, variant, trial } = record;
    if (expected.has(trialKey(suite, task, variant, trial, record.case))) continue;
    const why = !declared.has(JSON.stringify([suite, task, variant]))
      ? 'no task file declares it'
      : !trialNumbers.includes(trial)
        ? `not one of the selected trials ${trialNumbers.join(', ')}`
        : `not selected by ${selectionFlags(selection, 'rows')}`;
    extra.push(
      `${file}: ${shownName(task)} ${shownName(variant)} trial ${trial} (${shownName(suite)}): ${why}`,
    );
  }
  if (extra.length > 0) {
    const listed =
      extra.length > 10 ? [...extra.slice(0, 10), `and ${extra.length - 10} more`] : extra;
    throw new ConfigError(
      `cannot merge: ${extra.length === 1 ? 'a record is' : `${extra.length} records are`} outside the selection the shards ran (${flags}): ${listed.join('; ')}; ${rerun}`,
    );
  }

  const seen = new Set(
    records.map(({ record }) =>
      trialKey(record.suite, record.task, record.variant, record.trial, record.case),
    ),
  );
  const missing = [...expected].filter(([key]) => !seen.has(key)).map(([, trial]) => trial);
  if (missing.length === 0) return [];
  if (results.some(({ result }) => result.loadErrors.length > 0)) {
    return [
      `no shard has a record of ${listTrials(missing)}; the shards reported the errors above`,
    ];
  }
  throw new ConfigError(
    `cannot merge: no shard has a record of ${listTrials(missing)}, which the shards' selection (${flags}) selects; a shard result is incomplete or was edited: ${rerun}`,
  );
}
