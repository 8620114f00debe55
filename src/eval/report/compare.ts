import { direction, largestCommonK, largestK, rateAt } from './rates.js';
import type {
  Comparison,
  ComparisonEntry,
  ComparisonFlag,
  EvalReport,
  TaskSummary,
} from './report-schema.js';

/** What a comparison needs from either side: the rows and when they were made. */
export type ComparableReport = Pick<EvalReport, 'generatedAt' | 'tasks'>;

/** One row of a report: a task's variant in a suite. */
export type TaskKey = Pick<TaskSummary, 'suite' | 'task' | 'variant'>;

/** A row's identity, as a string for sets and maps. */
export function keyOf(row: TaskKey): string {
  return JSON.stringify([row.suite, row.task, row.variant]);
}

/**
 * The reference's rows that this run has no row for, split by why: `notRun` when a task
 * file still declares the row (it was only not selected: `--task`, `--suite`, `--variant`),
 * `gone` when nothing declares it any more (a deleted task file or variant). Without
 * `declared`, every absent row is gone: an unknown cannot pass as "not selected".
 */
export function absentRows(
  reference: Pick<ComparableReport, 'tasks'>,
  current: Pick<ComparableReport, 'tasks'>,
  declared?: ReadonlySet<string>,
): { gone: TaskSummary[]; notRun: TaskSummary[] } {
  const currentKeys = new Set(current.tasks.map(keyOf));
  const absent = reference.tasks.filter((row) => !currentKeys.has(keyOf(row)));
  return {
    gone: absent.filter((row) => !declared?.has(keyOf(row))),
    notRun: absent.filter((row) => declared?.has(keyOf(row))),
  };
}

/** `T2 (baseline, upgraded), T3 (baseline)`: the rows that were not run, per task. */
export function describeNotRun(rows: readonly TaskKey[]): string {
  const variants = new Map<string, string[]>();
  for (const row of rows) variants.set(row.task, [...(variants.get(row.task) ?? []), row.variant]);
  return [...variants].map(([task, names]) => `${task} (${names.join(', ')})`).join(', ');
}

function pairEntry(before: TaskSummary, after: TaskSummary): ComparisonEntry {
  const k = largestCommonK(before.passHatK, after.passHatK);
  const passAt1 = { before: before.passAt1, after: after.passAt1 };
  const passHatK = {
    k: k ?? null,
    before: rateAt(before.passHatK, k),
    after: rateAt(after.passHatK, k),
  };
  const moves = [
    direction(passAt1.before, passAt1.after),
    direction(passHatK.before, passHatK.after),
  ];
  const flag: ComparisonFlag = moves.includes(-1)
    ? 'dropped'
    : moves.includes(1)
      ? 'improved'
      : 'same';
  return { suite: after.suite, task: after.task, variant: after.variant, flag, passAt1, passHatK };
}

function oneSidedEntry(row: TaskSummary, flag: 'new' | 'gone'): ComparisonEntry {
  const k = largestK(row.passHatK);
  const value = { passAt1: row.passAt1, passHatK: rateAt(row.passHatK, k) };
  const side = (present: boolean, rate: number | null) => (present ? rate : null);
  const isNew = flag === 'new';
  return {
    suite: row.suite,
    task: row.task,
    variant: row.variant,
    flag,
    passAt1: { before: side(!isNew, value.passAt1), after: side(isNew, value.passAt1) },
    passHatK: {
      k: k ?? null,
      before: side(!isNew, value.passHatK),
      after: side(isNew, value.passHatK),
    },
  };
}

/**
 * Before -> after per (suite, task, variant) for pass@1 and pass^k at the largest k both
 * reports have. A drop in either metric flags the row 'dropped', even if the other rose.
 * Reference rows this run did not select (still in `declared`) are listed in `notRun`,
 * not as entries; rows that nothing declares any more are 'gone' entries.
 *
 * @example compareReports(parseReport(text, 'reports/reference.json'), report, declared).entries
 */
export function compareReports(
  reference: ComparableReport,
  current: ComparableReport,
  declared?: ReadonlySet<string>,
): Comparison {
  const before = new Map(reference.tasks.map((row) => [keyOf(row), row]));
  const entries = current.tasks.map((row) => {
    const earlier = before.get(keyOf(row));
    return earlier ? pairEntry(earlier, row) : oneSidedEntry(row, 'new');
  });
  const { gone, notRun } = absentRows(reference, current, declared);
  for (const row of gone) entries.push(oneSidedEntry(row, 'gone'));
  return {
    referenceGeneratedAt: reference.generatedAt,
    entries,
    ...(notRun.length > 0 && {
      notRun: notRun.map(({ suite, task, variant }) => ({ suite, task, variant })),
    }),
  };
}
