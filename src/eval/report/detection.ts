import {
  DETECTION_POWER,
  detectableDrop,
  MAX_TRIALS_NEEDED,
  trialsNeeded,
} from '../stats/power.js';
import { formatRate } from './format.js';
import type { Comparison, Detection, TaskSummary } from './report-schema.js';

/** The drop the detection limit prices in trials per side ("a drop of 0.10 needs ..."). */
export const PRICED_DROP = 0.1;

/**
 * What the gate's drop test can find at each row's n, if the row were compared on other
 * cassettes (re-recorded, live): the smallest pass@1 drop found with 80% power, and the trials per
 * side a drop of 0.10 would need. The level is alpha over the rows that ran (Holm's first step:
 * what a row needs when it alone dropped). From the reference's rate when it has the row, else
 * this run's. On the same cassettes the gate is exact and needs none of this.
 */
export function detectionLimits(
  tasks: readonly TaskSummary[],
  comparison: Comparison | undefined,
  alpha: number,
): Detection {
  const counted = tasks.filter((row) => row.n > 0);
  const family = Math.max(1, counted.length);
  const level = alpha / family;
  const before = new Map(
    (comparison?.entries ?? []).map((entry) => [
      JSON.stringify([entry.suite, entry.task, entry.variant]),
      entry.passAt1.before,
    ]),
  );
  const memo = new Map<string, number | null>();
  const cached = (key: string, compute: () => number | undefined) => {
    if (!memo.has(key)) memo.set(key, compute() ?? null);
    return memo.get(key)!;
  };
  return {
    alpha,
    family,
    power: DETECTION_POWER,
    pricedDrop: PRICED_DROP,
    rows: counted.map((row) => {
      const from = before.get(JSON.stringify([row.suite, row.task, row.variant])) ?? row.passAt1!;
      return {
        suite: row.suite,
        task: row.task,
        variant: row.variant,
        n: row.n,
        from,
        detectableDrop: cached(`d${row.n}/${from}`, () => detectableDrop(row.n, from, level)),
        trialsForPricedDrop:
          from < PRICED_DROP
            ? null
            : cached(`t${from}`, () => trialsNeeded(from, from - PRICED_DROP, level)),
      };
    }),
  };
}

/** The detection limit as every renderer shows it: a sentence and a table of texts. */
export interface DetectionView {
  summary: string;
  head: string[];
  rows: string[][];
}

export function detectionView(detection: Detection, bySuite: boolean): DetectionView {
  const level = detection.alpha / detection.family;
  const droppable = detection.rows.filter((row) => row.from > 0);
  const none = droppable.filter((row) => row.detectableDrop === null).length;
  const rows = detection.rows.map((row) => [
    ...(bySuite ? [row.suite] : []),
    row.task,
    row.variant,
    String(row.n),
    formatRate(row.from),
    row.from === 0
      ? '— (at 0)'
      : row.detectableDrop === null
        ? 'none, not even to 0'
        : `${row.detectableDrop.toFixed(2)} (to ${formatRate(row.from - row.detectableDrop)})`,
    row.trialsForPricedDrop === null
      ? row.from < detection.pricedDrop
        ? '—'
        : `more than ${MAX_TRIALS_NEEDED.toLocaleString('en-US')}`
      : row.trialsForPricedDrop.toLocaleString('en-US'),
  ]);
  const rowsText = `${detection.family} row${detection.family === 1 ? '' : 's'}`;
  return {
    summary:
      `Detection limit, if these rows were re-recorded: the drop test runs at alpha ${detection.alpha} over ${rowsText} (${level.toPrecision(2)} per row); ` +
      `the smallest pass@1 drop each row's n finds ${Math.round(detection.power * 100)}% of the time, and the trials per side a drop of ${detection.pricedDrop.toFixed(2)} needs. ` +
      (none > 0
        ? `${none} of the ${droppable.length} rows above 0 could not detect even a fall to 0 at their n.`
        : 'On the same cassettes the gate is exact: any drop fails it.'),
    head: [
      ...(bySuite ? ['Suite'] : []),
      'Task',
      'Variant',
      'n',
      'from',
      'smallest drop found',
      `trials for −${detection.pricedDrop.toFixed(2)}`,
    ],
    rows,
  };
}
