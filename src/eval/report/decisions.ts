import { keyOf } from '../spec/selection.js';
import type { TrialRecord } from '../spec/trial-record.js';
import { referenceLimit } from '../stats/sequential-limit.js';
import { decideRun, type SequentialRow } from '../stats/sequential-run.js';
import { type ComparableReport, compareReports } from './compare.js';
import type { DecisionSettings, Decisions, RowDecision } from './decisions-schema.js';
import type { ComparisonEntry, TaskSummary } from './report-schema.js';
import { suiteBaselines, summarizeTasks } from './summarize.js';
import { listProvenance } from './trial-lists.js';

/** One trial as the decisions read it: its row, case, number and outcome. */
export interface TrialOutcome {
  suite: string;
  task: string;
  variant: string;
  case?: string | undefined;
  trial: number;
  outcome: string;
}

export const DECISION_METHOD =
  'testing by betting (mixture e-processes, Ville), first crossing in trial order; Holm over the rows at alpha; docs/numbers.md#deciding-with-the-fewest-trials';

/**
 * A row's pass rate per round, in trial order: round t is trial t of every case of the row (one
 * trial for a task without cases). Rounds end at the first one that is not complete (a stale,
 * missing or errored trial, which the gate refuses on its own): a later round never stands in
 * for an earlier one.
 */
export function roundsOf(trials: readonly TrialOutcome[]): Map<string, number[]> {
  const rows = new Map<
    string,
    { cases: Set<string>; byTrial: Map<number, Map<string, boolean>> }
  >();
  for (const trial of trials) {
    const key = keyOf(trial);
    const row = rows.get(key) ?? { cases: new Set<string>(), byTrial: new Map() };
    const testCase = trial.case ?? '';
    row.cases.add(testCase);
    if (trial.outcome === 'passed' || trial.outcome === 'failed') {
      const round = row.byTrial.get(trial.trial) ?? new Map<string, boolean>();
      round.set(testCase, trial.outcome === 'passed');
      row.byTrial.set(trial.trial, round);
    }
    rows.set(key, row);
  }
  const rounds = new Map<string, number[]>();
  for (const [key, row] of rows) {
    const rates: number[] = [];
    for (let trial = 1; ; trial++) {
      const round = row.byTrial.get(trial);
      if (!round || round.size < row.cases.size) break;
      rates.push([...round.values()].filter(Boolean).length / round.size);
    }
    rounds.set(key, rates);
  }
  return rounds;
}

interface Candidate {
  row: Pick<TaskSummary, 'suite' | 'task' | 'variant'>;
  against: string;
  kind: 'reference' | 'baseline';
  sequential: SequentialRow;
  recorded: number;
  referenceTrials?: number;
}

/** Rows compared with the reference on other cassettes: their new rounds against its fixed counts. */
function referenceCandidates(
  entries: readonly ComparisonEntry[],
  rounds: ReadonlyMap<string, number[]>,
  datasetRows: ReadonlySet<string>,
  notDecided: NonNullable<Decisions['notDecided']>,
): Candidate[] {
  const candidates: Candidate[] = [];
  for (const entry of entries) {
    const before = entry.counts.before;
    if (entry.cassettes !== 'different' || !before || before.n === 0) continue;
    if (entry.flag === 'new' || entry.flag === 'gone') continue;
    const key = keyOf(entry);
    if (datasetRows.has(key)) {
      notDecided.push({
        row: `${entry.task} ${entry.variant} against the reference`,
        why: 'a dataset row against a fixed reference is not decided sequentially (its cases are not one binomial): compare it with a baseline variant that grows with it, paired by case',
      });
      continue;
    }
    const own = rounds.get(key) ?? [];
    candidates.push({
      row: entry,
      against: 'reference',
      kind: 'reference',
      sequential: { reference: { passed: before.passed, trials: before.n }, rounds: own },
      recorded: own.length,
      referenceTrials: before.n,
    });
  }
  return candidates;
}

/** Every other variant of a task against its suite's baseline: X_t = baseline round t - variant round t. */
function baselineCandidates(
  rounds: ReadonlyMap<string, number[]>,
  rows: readonly Pick<TaskSummary, 'suite' | 'task' | 'variant'>[],
  baselines: ReadonlyMap<string, string | undefined>,
): Candidate[] {
  const candidates: Candidate[] = [];
  for (const row of rows) {
    const baseline = baselines.get(row.suite);
    if (baseline === undefined || baseline === row.variant) continue;
    const base = rounds.get(keyOf({ ...row, variant: baseline }));
    if (!base) continue;
    const own = rounds.get(keyOf(row)) ?? [];
    const paired = own.slice(0, base.length).map((rate, index) => base[index]! - rate);
    candidates.push({
      row,
      against: baseline,
      kind: 'baseline',
      sequential: { rounds: paired },
      recorded: paired.length,
    });
  }
  return candidates;
}

/**
 * The run's sequential decisions, recomputed from the trials in trial order, so the same
 * cassettes always give the same states: each variant against the reference (rows replayed on
 * other cassettes than the reference's; the same cassettes keep the exact gate) and against
 * its suite's baseline. Holm over all of them holds the run's false drops at alpha.
 */
export function decideRows(input: {
  trials: readonly TrialOutcome[];
  rows: readonly Pick<TaskSummary, 'suite' | 'task' | 'variant'>[];
  baselines: ReadonlyMap<string, string | undefined>;
  comparison?: readonly ComparisonEntry[] | undefined;
  settings: DecisionSettings;
}): Decisions {
  const { settings } = input;
  const rounds = roundsOf(input.trials);
  const datasetRows = new Set(
    input.trials.filter((trial) => trial.case !== undefined).map((trial) => keyOf(trial)),
  );
  const notDecided: NonNullable<Decisions['notDecided']> = [];
  const candidates = [
    ...referenceCandidates(input.comparison ?? [], rounds, datasetRows, notDecided),
    ...baselineCandidates(rounds, input.rows, input.baselines),
  ].filter((candidate) => candidate.sequential.rounds.length > 0);
  const decided = decideRun(
    candidates.map((candidate) => candidate.sequential),
    {
      alpha: settings.alpha,
      beta: settings.beta,
      delta: settings.delta,
      ...(settings.maxTrials !== undefined && { maxRounds: settings.maxTrials }),
    },
  );
  const rows = candidates.map((candidate, index): RowDecision => {
    const decision = decided[index]!;
    const limit =
      candidate.kind === 'reference' && 'reference' in candidate.sequential
        ? referenceLimit({
            ...candidate.sequential.reference,
            delta: settings.delta,
            beta: settings.beta,
          })
        : undefined;
    return {
      suite: candidate.row.suite,
      task: candidate.row.task,
      variant: candidate.row.variant,
      against: candidate.against,
      kind: candidate.kind,
      state: decision.state,
      rounds: decision.rounds,
      recorded: candidate.recorded,
      ...(decision.decidedAt !== undefined && { decidedAt: decision.decidedAt }),
      ...(candidate.referenceTrials !== undefined && {
        referenceTrials: candidate.referenceTrials,
      }),
      pValue: decision.pValue,
      adjustedPValue: decision.adjustedPValue,
      interval: { lower: decision.interval.lower, upper: decision.interval.upper },
      ...(decision.moreRounds !== undefined && { moreRounds: decision.moreRounds }),
      ...(limit && !limit.possible && { limit: limit.summary }),
    };
  });
  return {
    method: DECISION_METHOD,
    alpha: settings.alpha,
    beta: settings.beta,
    delta: settings.delta,
    ...(settings.maxTrials !== undefined && { maxTrials: settings.maxTrials }),
    undecided: settings.undecided,
    rows,
    ...(notDecided.length > 0 && { notDecided }),
  };
}

/**
 * The decisions a report of these records would hold, against `reference` when given: what
 * `record --until-decided` reads after each batch, computed as buildReport computes them.
 */
export function decideRecords(
  records: readonly TrialRecord[],
  reference: ComparableReport | undefined,
  settings: DecisionSettings,
): Decisions {
  const tasks = summarizeTasks(records);
  const comparison = reference
    ? compareReports(
        reference,
        { generatedAt: 'now', tasks, trialProvenance: listProvenance(records) },
        { alpha: settings.alpha },
      )
    : undefined;
  return decideRows({
    trials: records,
    rows: tasks,
    baselines: suiteBaselines(records),
    comparison: comparison?.entries,
    settings,
  });
}
