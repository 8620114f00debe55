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

function keyOf(row: Pick<TaskSummary, 'suite' | 'task' | 'variant'>): string {
  return JSON.stringify([row.suite, row.task, row.variant]);
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
 *
 * @example compareReports(parseReport(text, 'reports/reference.json'), report).entries
 */
export function compareReports(reference: ComparableReport, current: ComparableReport): Comparison {
  const before = new Map(reference.tasks.map((row) => [keyOf(row), row]));
  const currentKeys = new Set(current.tasks.map(keyOf));
  const entries = current.tasks.map((row) => {
    const earlier = before.get(keyOf(row));
    return earlier ? pairEntry(earlier, row) : oneSidedEntry(row, 'new');
  });
  for (const row of reference.tasks) {
    if (!currentKeys.has(keyOf(row))) entries.push(oneSidedEntry(row, 'gone'));
  }
  return { referenceGeneratedAt: reference.generatedAt, entries };
}
