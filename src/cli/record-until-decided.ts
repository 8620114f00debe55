import { decideRecords } from '../eval/report/decisions.js';
import type { DecisionSettings, Decisions, RowDecision } from '../eval/report/decisions-schema.js';
import { decisionStateText } from '../eval/report/decisions-view.js';
import { trialLabel } from '../eval/report/format.js';
import type { LoadedReference } from '../eval/run/finish-run.js';
import { type RunEvalsOptions, runEvals } from '../eval/run/run-evals.js';
import { keyOf } from '../eval/spec/selection.js';
import type { TrialRecord } from '../eval/spec/trial-record.js';
import { terminalLine } from './terminal-text.js';

/** The default cap on trials per row (`--max-trials`). */
export const DEFAULT_MAX_TRIALS = 60;

export interface UntilDecidedOptions {
  /** The recording as `npm run record` would run it: selection, source, models, judges. */
  run: RunEvalsOptions;
  /** Trials added to each open row per round (`--batch`). */
  batch: number;
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

function progressLines(decisions: Decisions, round: number, trials: number): string[] {
  const lines = [`round ${round}: ${trials} trials per open row`];
  for (const row of decisions.rows) {
    const against = row.kind === 'reference' ? 'the reference' : row.against;
    lines.push(
      `  ${row.task} ${row.variant} vs ${against}: ${decisionStateText(row, decisions.delta)}, ${row.recorded} trial${row.recorded === 1 ? '' : 's'}`,
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
    const problems = roundProblems(result);
    if (problems.length > 0) {
      for (const problem of problems) log(terminalLine(`  ✗ ${problem}`));
      log(
        'stopped: a trial has no verdict. What was recorded is kept; fix the cause and run the same command again to go on.',
      );
      return 1;
    }
    decisions = decideRecords([...kept.values()], options.reference?.report, settings);
    for (const line of progressLines(decisions, round, trials)) log(line);
    open = openRows(decisions);
    if (open.length === 0 || trials >= settings.maxTrials) break;
  }
  log(summaryLine(decisions, settings.maxTrials));
  log('Replay them as recorded, each row with all its trials: npm run eval -- --trials all');
  return 0;
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
