import { appendFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { writeFilesAtomic } from '../../core/atomic-write.js';
import { ConfigError, errorMessage } from '../../core/errors.js';
import { outsideProblem } from '../../core/inside-folder.js';
import { readRegularFile, whyUnreadable } from '../../core/regular-file.js';
import { maskConfiguredKeys } from '../../core/secret-values.js';
import { compareWithBase } from '../base/base-reference.js';
import { buildReport } from '../report/build-report.js';
import { absentRows } from '../report/compare.js';
import type { DecisionSettings } from '../report/decisions-schema.js';
import type { TaskFloor } from '../report/gate.js';
import { renderHtml } from '../report/html.js';
import { loadTranscripts, type TrialTranscript } from '../report/load-transcripts.js';
import { ARTIFACT_ENV, htmlReportNote, renderMarkdown } from '../report/markdown.js';
import { buildReportModel } from '../report/report-model.js';
import { type EvalReport, parseReport } from '../report/report-schema.js';
import { renderTerminal } from '../report/terminal.js';
import { byTrial, reportMessage } from '../report/trial-lists.js';
import type { Changes } from '../spec/changes-schema.js';
import type { PricesFile } from '../spec/prices.js';
import { priceTable } from '../spec/prices-file.js';
import type { TrialRecord } from '../spec/trial-record.js';
import { referenceFileOf } from './reference-file.js';

export { readPricesFile } from '../spec/prices-file.js';

export interface ReportOptions {
  /** A report to compare against; defaults to reports/reference.json when it exists. */
  compare?: string;
  /** Read the reference (and what changed) from this git ref, not from the checkout. */
  referenceFrom?: string;
  /** A maintainer's word that a lowered reference (from --reference-from) may be compared with. */
  allowLowerReference?: boolean;
  updateReference?: boolean;
  /** One-sided significance level of the drop test when cassettes differ (default 0.05). */
  alpha?: number;
  /** Floors are checked against the interval's lower bound. */
  strictFloors?: boolean;
  /** The sequential decisions' settings: `--delta`, `--beta`, `--max-trials`, `--undecided`. */
  decide?: Partial<Omit<DecisionSettings, 'alpha'>>;
  /** `--compare A,B`: every Δ is measured against variant A where it ran. */
  deltaReference?: string;
  /** Write reports/latest.{json,md} and the job summary (off when recording). */
  writeReports?: boolean;
  color?: boolean;
}

export interface FinishedRun {
  report: EvalReport;
  /** What the CLI prints: the terminal tables. */
  terminal: string;
  written: string[];
  /** Things the user should know about this run (e.g. that trial counts differ). */
  notes: string[];
  /**
   * Why the reports could not be written (reports/ read-only, a directory in a file's place):
   * the scores and the gate above still stand, and nothing of the old set was replaced.
   */
  writeError?: string;
}

export interface LoadedReference {
  file: string;
  report: EvalReport;
}

/** How the rows are tested and decided: `--alpha`, the decisions' settings, `--strict-floors`. */
function statisticsOf(options: ReportOptions) {
  return {
    ...(options.alpha !== undefined && { alpha: options.alpha }),
    ...(options.decide && { decide: options.decide }),
    ...(options.strictFloors && { strictFloors: true }),
  };
}

/** What finishRun reports on: the run's records and what it is compared with. */
export interface FinishRunInput {
  projectDir: string;
  records: readonly TrialRecord[];
  floors: readonly TaskFloor[];
  loadErrors: readonly string[];
  /** Every (suite, task, variant) a task file declares, selected or not: "not run" vs "gone". */
  declared: ReadonlySet<string>;
  trials: number;
  reference?: LoadedReference | undefined;
  /** What this checkout changed against the base (`--reference-from`). */
  changes?: Changes;
  /** Why the gate cannot compare with the base's reference, when it cannot. */
  baseProblem?: string;
  /** The project's harness-evals.prices.json, read before any trial ran. */
  prices?: PricesFile | undefined;
  /** Transcripts already being read (EvalReporter's `transcripts`); the rest are read here. */
  transcripts?: ReadonlyMap<TrialRecord, Promise<TrialTranscript>>;
}

/** What the user should know about the reference, and its rows no task declares any more. */
function referenceNotes(input: FinishRunInput, options: ReportOptions) {
  const { reference, trials } = input;
  const notes: string[] = [];
  if (reference && reference.report.trials !== trials) {
    notes.push(
      `${relative(process.cwd(), reference.file)} was made with --trials ${reference.report.trials}, this run has ${trials}: drops are judged by a one-sided test, not point by point`,
    );
  }
  // Whatever the trial counts: a task deleted from evals/ must not pass unnoticed.
  const { gone } = reference
    ? absentRows(reference.report, { tasks: [] }, input.declared)
    : { gone: [] };
  if (options.updateReference && gone.length > 0) {
    notes.push(
      `the new reference drops ${gone.map((row) => `${row.task} ${row.variant}`).join(', ')}: no task declares them any more`,
    );
  }
  return { notes, gone };
}

/**
 * From the trial records to the report: compare with the reference, gate, render, and write
 * reports/latest.{json,md} (and the reference, and the job summary) when asked. Shared by a
 * whole run and by `--merge` of shard results, so both give the same report.
 */
export async function finishRun(
  input: FinishRunInput,
  options: ReportOptions,
): Promise<FinishedRun> {
  maskConfiguredKeys(process.env);
  const { reference, trials } = input;
  const { notes, gone } = referenceNotes(input, options);
  const report = buildReport({
    records: input.records,
    trials,
    floors: input.floors,
    ...(reference && { reference: reference.report }),
    declared: input.declared,
    ...(!options.updateReference && { gone }),
    generatedAt: new Date(),
    ...statisticsOf(options),
    ...(options.deltaReference !== undefined && { deltaReference: options.deltaReference }),
    ...(input.changes && { changes: input.changes }),
    prices: priceTable(input.prices),
  });
  if (input.baseProblem) {
    report.gate = {
      ...report.gate,
      passed: false,
      reasons: [input.baseProblem, ...report.gate.reasons],
    };
  }
  if (input.loadErrors.length > 0) {
    report.gate = {
      ...report.gate,
      passed: false,
      // Error messages are the user's code's text: a credential or card number in one stays out
      // of the reports (and of shard results merged from hand-edited files).
      reasons: [...input.loadErrors.map(reportMessage), ...report.gate.reasons],
    };
  }
  const model = buildReportModel(report);
  const terminal = renderTerminal(model, { color: options.color ?? false });
  const written: string[] = [];
  if (options.writeReports === false) return { report, terminal, written, notes };
  const markdown = renderMarkdown(model, { htmlNote: htmlReportNote(process.env[ARTIFACT_ENV]) });
  const reports = join(input.projectDir, 'reports');
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const records = [...input.records].sort(byTrial);
  const unread = records.filter((record) => !input.transcripts?.has(record));
  const read = await loadTranscripts(unread, input.projectDir);
  const readOf = new Map(unread.map((record, index) => [record, read[index]!]));
  const transcripts = await Promise.all(
    records.map((record) => input.transcripts?.get(record) ?? readOf.get(record)!),
  );
  const html = renderHtml(
    model,
    records.map((record, index) => ({ record, transcript: transcripts[index]! })),
  );
  const set: Array<[string, string]> = [
    ['latest.json', json],
    ['latest.md', markdown],
    ['latest.html', html],
    ...(options.updateReference ? [['reference.json', json] as [string, string]] : []),
  ];
  try {
    const outside = await outsideProblem(input.projectDir, reports, 'reports', 'the report');
    if (outside) throw new ConfigError(outside);
    // One set: an interrupted or failed write leaves the old reports or the new ones, not a mix.
    await writeFilesAtomic(set.map(([name, text]) => [join(reports, name), text]));
  } catch (error) {
    return {
      report,
      terminal,
      written,
      notes,
      writeError: `the reports were not written: ${errorMessage(error)}`,
    };
  }
  written.push(...set.map(([name]) => `reports/${name}`));
  const summary = process.env.GITHUB_STEP_SUMMARY;
  if (summary) {
    await appendFile(summary, `${markdown}\n`);
    written.push('$GITHUB_STEP_SUMMARY');
  }
  return { report, terminal, written, notes };
}

/**
 * The reference a run compares with: `--reference-from REF`'s (with what the checkout changed
 * against REF), else `--compare FILE`, else reports/reference.json when it exists.
 */
export async function loadComparison(
  projectDir: string,
  options: ReportOptions,
): Promise<{ reference?: LoadedReference; changes?: Changes; baseProblem?: string }> {
  if (options.referenceFrom) {
    const base = await compareWithBase(
      projectDir,
      options.referenceFrom,
      options.allowLowerReference ?? false,
    );
    return {
      ...(base.reference && { reference: base.reference }),
      changes: base.changes,
      ...(base.problem && { baseProblem: base.problem }),
    };
  }
  const reference = await loadReference(projectDir, options.compare, options.updateReference);
  return reference ? { reference } : {};
}

/**
 * `--compare FILE`, else reports/reference.json when it exists. With `replacing` (an
 * --update-reference run without --compare), an unreadable or older-version reference is
 * skipped rather than refused: this run is about to overwrite it.
 */
export async function loadReference(
  projectDir: string,
  compare: string | undefined,
  replacing = false,
): Promise<LoadedReference | undefined> {
  const file = referenceFileOf(projectDir, compare);
  if (file === undefined) return undefined;
  if (replacing && !compare) {
    try {
      return await loadReference(projectDir, file);
    } catch (error) {
      if (error instanceof ConfigError) return undefined;
      throw error;
    }
  }
  let text: string;
  try {
    text = (await readRegularFile(file)).toString('utf8');
  } catch (error) {
    const shown = relative(process.cwd(), file);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ConfigError(
        `--compare ${shown}: no such file; give a report written by npm run eval (reports/latest.json)`,
      );
    }
    throw new ConfigError(
      `${shown} cannot be read (${whyUnreadable(error)}); give a report written by npm run eval (reports/latest.json)`,
      { cause: error },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(
      `${relative(process.cwd(), file)} is not valid JSON (${(error as Error).message}); regenerate it with npm run eval -- --update-reference`,
    );
  }
  return { file, report: parseReport(json, relative(process.cwd(), file)) };
}
