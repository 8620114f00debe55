import type { SuiteDelta, TaskSummary, VariantDelta, VariantSummary } from './report-schema.js';
import { deltaReference, variantDelta } from './summarize.js';
import { suiteDeltaOf } from './summarize-suites.js';

function groupBy<T>(rows: readonly T[], key: (row: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const name = key(row);
    groups.set(name, [...(groups.get(name) ?? []), row]);
  }
  return [...groups.values()];
}

/**
 * Every variant of a task against its reference (baseline, else the first), for any number of
 * variants: the JSON report's `delta` exists only with exactly two, and is used as it is there.
 * The reference row itself has none.
 */
export function taskDeltas<T extends TaskSummary>(rows: readonly T[]): Map<T, VariantDelta> {
  const deltas = new Map<T, VariantDelta>();
  for (const variants of groupBy(rows, (row) => JSON.stringify([row.suite, row.task]))) {
    const reference = deltaReference(variants);
    for (const row of variants) {
      if (row !== reference) deltas.set(row, row.delta ?? variantDelta(reference, row));
    }
  }
  return deltas;
}

/** Every variant of a suite against its reference, paired by task (see suiteDeltaOf). */
export function suiteDeltas<T extends VariantSummary>(
  summaries: readonly T[],
  tasks: readonly TaskSummary[],
): Map<T, SuiteDelta> {
  const deltas = new Map<T, SuiteDelta>();
  for (const variants of groupBy(summaries, (row) => row.suite)) {
    const reference = deltaReference(variants);
    for (const row of variants) {
      if (row === reference) continue;
      // The report's own (two variants) is the same, and its bootstrap is not run twice.
      deltas.set(row, row.delta ?? suiteDeltaOf(tasks, row.suite, reference.variant, row.variant));
    }
  }
  return deltas;
}
