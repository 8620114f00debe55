import { atMost } from './drop-test.js';
import { holmAdjusted } from './holm.js';
import { decidePaired, type SequentialOptions } from './sequential.js';
import { decideAgainstReference, type ReferenceCounts } from './sequential-reference.js';
import type { SequentialDecision, SequentialState } from './sequential-schema.js';

/** A compared row: paired rounds (variant against baseline) or new rounds against a reference. */
export type SequentialRow =
  | { rounds: readonly number[] }
  | { reference: ReferenceCounts; rounds: readonly number[] };

/** A row's decision once the run-level adjustment is applied. */
export interface RunDecision extends SequentialDecision {
  /** Holm-adjusted over the run's rows: "drop" holds at alpha for the run together. */
  adjustedPValue: number;
}

/**
 * Holm's step-down over the rows' anytime-valid p-values, each taken at its row's stopping
 * round. An anytime-valid p-value is valid at ANY round, even one chosen by looking at the data
 * of every row (P(p_tau <= x) <= P(inf_t p_t <= x) <= x by Ville), so Holm keeps the chance of
 * one or more false drops in the run at alpha, whatever the dependence between rows (Holm 1979
 * needs only valid p-values). Each row's walk already stopped at alpha / rows (Holm's first
 * step), so every 'drop' stays one (its adjusted p-value is <= rows * alpha / rows). The later
 * steps can only turn an 'undecided' row into a drop at the round it stopped; a 'no-drop' row
 * keeps its state (saying less cannot raise the false-drop rate).
 *
 * A row still open (under its cap) that this step turns into a drop is decided at its last round:
 * the recorder must stop it there, so that recomputing from the cassettes gives the same state
 * (rounds recorded after it could cross the no-drop boundary first). Holm is monotone, so more
 * rounds of the other rows never undo such a drop.
 */
export function runLevel<T extends { state: SequentialState; pValue: number; rounds: number }>(
  decisions: readonly T[],
  alpha: number,
): Array<T & { adjustedPValue: number }> {
  const adjusted = holmAdjusted(decisions.map((decision) => decision.pValue));
  return decisions.map((decision, index) => {
    const adjustedPValue = adjusted[index]!;
    if (decision.state === 'undecided' && atMost(adjustedPValue, alpha)) {
      const { moreRounds: _, ...rest } = decision as T & { moreRounds?: number };
      return { ...(rest as T), state: 'drop', decidedAt: decision.rounds, adjustedPValue };
    }
    return { ...decision, adjustedPValue };
  });
}

/**
 * Decide every compared row of a run: each row's walk with its drop boundary at alpha over the
 * number of rows, then runLevel. Recomputing from the same rounds always gives the same states.
 *
 * @example
 * decideRun([{ rounds: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1] }, { rounds: Array(30).fill(0) }],
 *   { alpha: 0.05, beta: 0.2, delta: 0.1 }) // states: ['drop', 'no-drop']
 */
export function decideRun(
  rows: readonly SequentialRow[],
  options: Omit<SequentialOptions, 'rows'>,
): RunDecision[] {
  const shared = { ...options, rows: Math.max(1, rows.length) };
  const decisions = rows.map((row) =>
    'reference' in row
      ? decideAgainstReference({ ...shared, reference: row.reference, rounds: row.rounds })
      : decidePaired({ ...shared, rounds: row.rounds }),
  );
  return runLevel(decisions, options.alpha);
}
