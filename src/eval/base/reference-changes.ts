import { keyOf } from '../report/compare.js';
import { largestK, rateAt, rateMoves } from '../report/rates.js';
import type { TaskSummary } from '../report/report-schema.js';
import type { Changes, ReferenceRowChange } from '../spec/changes-schema.js';

type ReferenceDiff = Pick<Changes['reference'], 'status' | 'rows' | 'lowered'>;

/** What a reference row says that a change can be read from: the same in every report version. */
export type ReferenceRow = Pick<
  TaskSummary,
  'suite' | 'task' | 'variant' | 'n' | 'passed' | 'passAt1' | 'passHatK'
>;

/**
 * How this checkout's reports/reference.json differs from the base's, row by row: a row whose
 * pass@1 or pass^k (at the largest k both have) is lower, or a row the base had and this one
 * does not, lowers the bar a pull request is judged by.
 */
export function referenceChanges(
  base: { tasks: readonly ReferenceRow[] } | undefined,
  checkout: { tasks: readonly ReferenceRow[] } | undefined,
): ReferenceDiff {
  if (!base && !checkout) return { status: 'absent', rows: [], lowered: false };
  const before = new Map((base?.tasks ?? []).map((row) => [keyOf(row), row]));
  const after = new Map((checkout?.tasks ?? []).map((row) => [keyOf(row), row]));
  const rows: ReferenceRowChange[] = [];
  for (const [key, row] of before) {
    const other = after.get(key);
    const change = other ? rowChange(row, other) : oneSided(row, 'removed');
    if (change) rows.push(change);
  }
  for (const [key, row] of after) if (!before.has(key)) rows.push(oneSided(row, 'added'));
  const lowered = rows.some((row) => row.change === 'lowered' || row.change === 'removed');
  const status = !base ? 'added' : !checkout ? 'removed' : rows.length > 0 ? 'changed' : 'same';
  return { status, rows, lowered };
}

function rowChange(before: ReferenceRow, after: ReferenceRow): ReferenceRowChange | undefined {
  const { passAt1, passHatK, moves } = rateMoves(before, after);
  const counts = before.n !== after.n || before.passed !== after.passed;
  if (!counts && moves.every((move) => move === 0)) return undefined;
  const change = moves.includes(-1) ? 'lowered' : moves.includes(1) ? 'raised' : 'other';
  return {
    suite: after.suite,
    task: after.task,
    variant: after.variant,
    change,
    passAt1,
    passHatK,
  };
}

function oneSided(row: ReferenceRow, change: 'added' | 'removed'): ReferenceRowChange {
  const k = largestK(row.passHatK);
  const rate = (value: number | null) =>
    change === 'added' ? { before: null, after: value } : { before: value, after: null };
  return {
    suite: row.suite,
    task: row.task,
    variant: row.variant,
    change,
    passAt1: rate(row.passAt1),
    passHatK: { k: k ?? null, ...rate(rateAt(row.passHatK, k)) },
  };
}
