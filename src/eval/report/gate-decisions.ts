import { keyOf } from '../spec/selection.js';
import type { Decisions, RowDecision } from './decisions-schema.js';

/** A row decided against the reference: the gate reads its state instead of the fixed-n test. */
export function decidedAgainstReference(decisions: Decisions | undefined): Set<string> {
  return new Set(
    (decisions?.rows ?? []).filter((row) => row.kind === 'reference').map((row) => keyOf(row)),
  );
}

const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(2)}`;

/** `T1 upgraded against baseline`, the row as the gate names it. */
export function decisionLabel(row: RowDecision): string {
  return `${row.task} ${row.variant} against ${row.kind === 'reference' ? 'the reference' : row.against}`;
}

/** `after 8 trials (the reference has 3)`: what the decision read. */
function readText(row: RowDecision): string {
  const trials = `${row.rounds} trial${row.rounds === 1 ? '' : 's'}`;
  return row.kind === 'reference'
    ? `${trials} against the reference's ${row.referenceTrials ?? 0}`
    : `${trials} paired with ${row.against}'s`;
}

/**
 * The gate's reading of the sequential decisions: a drop fails; no drop larger than delta
 * passes; an undecided row warns, or fails with `--undecided fail`, naming about how many more
 * trials would likely decide it.
 */
export function decisionVerdicts(decisions: Decisions | undefined): {
  reasons: string[];
  warnings: string[];
} {
  const reasons: string[] = [];
  const warnings: string[] = [];
  if (!decisions) return { reasons, warnings };
  for (const row of decisions.rows) {
    const drop = `pass@1 drop ${signed(row.interval.lower)} to ${signed(row.interval.upper)}`;
    if (row.state === 'drop') {
      reasons.push(
        `${decisionLabel(row)}: a drop, decided after ${readText(row)} (${drop}, adjusted p ${row.adjustedPValue.toFixed(4)}, alpha ${decisions.alpha} for the run)`,
      );
    } else if (row.state === 'undecided') {
      const more =
        row.moreRounds === undefined
          ? 'no number of trials is likely to decide it at this rate'
          : `about ${row.moreRounds} more would likely decide it (npm run record -- --until-decided)`;
      const line = `${decisionLabel(row)}: undecided after ${readText(row)} (${drop}; ${more}${row.limit ? `; ${row.limit}` : ''})`;
      (decisions.undecided === 'fail' ? reasons : warnings).push(
        decisions.undecided === 'fail' ? `${line} (--undecided fail)` : line,
      );
    }
  }
  return { reasons, warnings };
}
