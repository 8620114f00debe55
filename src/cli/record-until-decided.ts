import { ConfigError } from '../core/errors.js';
import { DEFAULT_ALPHA } from '../eval/report/compare.js';
import type { Cost } from '../eval/report/cost-schema.js';
import { formatUsd } from '../eval/report/cost-view.js';
import { decideRecords } from '../eval/report/decisions.js';
import type { DecisionSettings, Decisions, RowDecision } from '../eval/report/decisions-schema.js';
import { DEFAULT_BETA, DEFAULT_DELTA } from '../eval/report/decisions-schema.js';
import { decisionStateText } from '../eval/report/decisions-view.js';
import { trialLabel } from '../eval/report/format.js';
import type { EvalReport } from '../eval/report/report-schema.js';
import type { LoadedReference } from '../eval/run/finish-run.js';
import { type RunEvalsOptions, runEvals } from '../eval/run/run-evals.js';
import { keyOf } from '../eval/spec/selection.js';
import type { TrialRecord } from '../eval/spec/trial-record.js';
import { fraction, positiveInteger } from './args.js';
import { decisionFlags } from './decision-flags.js';
import { terminalLine } from './terminal-text.js';

/** The default cap on trials per row (`--max-trials`). */
export const DEFAULT_MAX_TRIALS = 60;

/** The record flags --until-decided reads. */
interface UntilDecidedFlags {
  'until-decided'?: boolean | undefined;
  'missing-only'?: boolean | undefined;
  'judge-only'?: boolean | undefined;
  trials?: string | undefined;
  trial?: string | undefined;
  shard?: string | undefined;
  batch?: string | undefined;
  'max-trials'?: string | undefined;
  budget?: string | undefined;
  alpha?: string | undefined;
  delta?: string | undefined;
  beta?: string | undefined;
  undecided?: string | undefined;
}

export interface UntilDecidedOptions {
  /** The recording as `npm run record` would run it: selection, source, models, judges. */
  run: RunEvalsOptions;
  /** Trials added to each open row per round (`--batch`). */
  batch: number;
  /** `--budget USD`: no round starts that would likely take the spending past it. */
  budget?: number;
  settings: DecisionSettings & { maxTrials: number };
  reference: LoadedReference | undefined;
  log: (line: string) => void;
}

const recordKey = (record: TrialRecord) => `${keyOf(record)}#${record.case ?? ''}#${record.trial}`;

/**
 * The rows a round still records: each row of an undecided decision, and for a decision against
 * the baseline, the baseline too (a paired comparison grows on both sides).
 */
export function openRows(decisions: Decisions): string[] {
  const open = new Set<string>();
  for (const row of decisions.rows) {
    if (row.state !== 'undecided' || row.recorded > row.rounds) continue;
    open.add(keyOf(row));
    if (row.kind === 'baseline') open.add(keyOf({ ...row, variant: row.against }));
  }
  return [...open].sort();
}

/** What recording each row's trials cost so far, by keyOf, and what this command spent. */
export interface Spending {
  rows: Map<string, Cost>;
  spent: Cost;
}

function addCost(into: Cost, cost: Cost): Cost {
  return {
    usd: into.usd === null || cost.usd === null ? null : into.usd + cost.usd,
    calls: into.calls + cost.calls,
    estimate: into.estimate || cost.estimate,
    unpriced: [...new Set([...into.unpriced, ...cost.unpriced])],
  };
}

/** A round's report: its rows' recorded cost (all their trials ran in it), what it wrote. */
function spendingAfter(spending: Spending, report: EvalReport): Spending {
  for (const row of report.tasks) if (row.cost) spending.rows.set(keyOf(row), row.cost.recorded);
  const run = report.cost?.run;
  return { rows: spending.rows, spent: run ? addCost(spending.spent, run) : spending.spent };
}

function progressLines(
  decisions: Decisions,
  round: number,
  trials: number,
  spending: Spending,
): string[] {
  const lines = [
    `round ${round}: ${trials} trials per open row; spent so far ${formatUsd(spending.spent)}`,
  ];
  for (const row of decisions.rows) {
    const against = row.kind === 'reference' ? 'the reference' : row.against;
    const cost = spending.rows.get(keyOf(row));
    lines.push(
      `  ${row.task} ${row.variant} vs ${against}: ${decisionStateText(row, decisions.delta)}, ${row.recorded} trial${row.recorded === 1 ? '' : 's'}${cost ? `, recorded for ${formatUsd(cost)}` : ''}`,
    );
  }
  return lines.map((line) => terminalLine(line));
}

/** A round that left a trial without a verdict: the loop stops, what was recorded stays. */
function roundProblems(result: Awaited<ReturnType<typeof runEvals>>): string[] {
  return [
    ...result.unfinished.map((trial) => `${trialLabel(trial)}: ${trial.problem}`),
    ...result.loadErrors,
    ...result.records
      .filter((record) => record.outcome !== 'passed' && record.outcome !== 'failed')
      .map((record) => `${trialLabel(record)}: ${record.outcome}: ${record.messages[0] ?? ''}`),
  ];
}

/**
 * `npm run record -- --until-decided`: records `batch` more trials of every row still open,
 * decides every compared row from its trials in trial order (decideRecords, as the eval will),
 * and goes on only for the rows still undecided, up to `maxTrials` each. What is recorded is
 * kept; run again, it replays what it has (recording what a change made stale) and goes on
 * from there, to the same decisions.
 */
export async function recordUntilDecided(options: UntilDecidedOptions): Promise<number> {
  const { settings, log } = options;
  const kept = new Map<string, TrialRecord>();
  let open: string[] | undefined;
  let decisions: Decisions | undefined;
  let spending: Spending = {
    rows: new Map(),
    spent: { usd: 0, calls: 0, estimate: false, unpriced: [] },
  };
  for (let round = 1, trials = 0; ; round++) {
    trials = Math.min(trials + options.batch, settings.maxTrials);
    const result = await runEvals({
      ...options.run,
      mode: 'record',
      trials,
      missingOnly: 'or-stale',
      writeReports: false,
      ...(open && { rows: open }),
    });
    for (const record of result.records) kept.set(recordKey(record), record);
    spending = spendingAfter(spending, result.report);
    const problems = roundProblems(result);
    if (problems.length > 0) {
      for (const problem of problems) log(terminalLine(`  ✗ ${problem}`));
      log(
        'stopped: a trial has no verdict. What was recorded is kept; fix the cause and run the same command again to go on.',
      );
      return 1;
    }
    decisions = decideRecords([...kept.values()], options.reference?.report, settings);
    for (const line of progressLines(decisions, round, trials, spending)) log(line);
    open = openRows(decisions);
    if (open.length === 0 || trials >= settings.maxTrials) break;
    const over = overBudget(
      options.budget,
      spending,
      open,
      Math.min(options.batch, settings.maxTrials - trials),
    );
    if (over) {
      log(terminalLine(over));
      break;
    }
  }
  log(
    `${summaryLine(decisions, settings.maxTrials)}; this command spent ${formatUsd(spending.spent)}`,
  );
  log('Replay them as recorded, each row with all its trials: npm run eval -- --trials all');
  return 0;
}

/**
 * `--budget USD`: why the next round must not start (it would likely pass the budget, or its
 * cost cannot be known), or undefined. The next round's cost is each open row's mean recorded
 * cost per trial times the trials it would add. The first round's cost is known only after it.
 */
export function overBudget(
  budget: number | undefined,
  spending: Spending,
  open: readonly string[],
  trials: number,
): string | undefined {
  if (budget === undefined) return undefined;
  let next = 0;
  const unpriced = new Set<string>();
  for (const key of open) {
    const cost = spending.rows.get(key);
    if (!cost || cost.calls === 0) continue;
    if (cost.usd === null) for (const model of cost.unpriced) unpriced.add(model);
    else next += (cost.usd / cost.calls) * trials;
  }
  if (unpriced.size > 0 || spending.spent.usd === null) {
    return `stopped: --budget needs prices, and ${[...unpriced].join(', ') || 'some model'} has none: add it to harness-evals.prices.json (docs/numbers.md); the open rows stay undecided`;
  }
  const total = spending.spent.usd + next;
  if (total <= budget) return undefined;
  return `stopped: the next round would likely cost $${next.toFixed(4)}, and with $${spending.spent.usd.toFixed(4)} spent that passes --budget $${budget}; the open rows stay undecided`;
}

function summaryLine(decisions: Decisions | undefined, maxTrials: number): string {
  const rows = decisions?.rows ?? [];
  const count = (state: RowDecision['state']) => rows.filter((row) => row.state === state).length;
  if (rows.length === 0) {
    return 'nothing to decide: no row is compared (no reports/reference.json on other cassettes, and no variant beside a baseline)';
  }
  const undecided = count('undecided');
  return `decided: ${count('drop')} drop, ${count('no-drop')} no drop > ${decisions!.delta.toFixed(2)}${undecided > 0 ? `, ${undecided} undecided at ${maxTrials} trials (--max-trials)` : ''}`;
}

/** --until-decided and its flags (--batch, --max-trials, --alpha, --delta, --beta), checked before anything runs. */
export function untilDecidedFlags(values: UntilDecidedFlags) {
  const decisionOnly = (
    ['batch', 'max-trials', 'alpha', 'delta', 'beta', 'undecided', 'budget'] as const
  ).filter((flag) => values[flag] !== undefined);
  if (!values['until-decided']) {
    if (decisionOnly.length > 0) {
      throw new ConfigError(
        `${decisionOnly.map((flag) => `--${flag}`).join(', ')} go with --until-decided (or --plan)`,
      );
    }
    return undefined;
  }
  const clashing = (['trials', 'trial', 'missing-only', 'shard', 'judge-only'] as const).filter(
    (flag) => values[flag] !== undefined,
  );
  if (clashing.length > 0) {
    throw new ConfigError(
      `--until-decided chooses the trials itself (what is recorded is kept, what is missing or stale is recorded): drop ${clashing.map((flag) => `--${flag}`).join(', ')}`,
    );
  }
  const decide = decisionFlags(values);
  return {
    batch: positiveInteger('--batch', values.batch, 3, 100),
    ...(values.budget !== undefined && { budget: dollars(values.budget) }),
    settings: {
      alpha: fraction('--alpha', values.alpha) ?? DEFAULT_ALPHA,
      beta: decide.beta ?? DEFAULT_BETA,
      delta: decide.delta ?? DEFAULT_DELTA,
      undecided: decide.undecided ?? 'warn',
      maxTrials: decide.maxTrials ?? DEFAULT_MAX_TRIALS,
    },
  };
}

/** `--budget 2.50`: dollars, more than 0. */
function dollars(value: string): number {
  const amount = Number(value);
  if (value.trim() === '' || !Number.isFinite(amount) || amount <= 0) {
    throw new ConfigError(
      `--budget takes an amount in US dollars above 0 (e.g. --budget 5), got '${value}'`,
    );
  }
  return amount;
}
