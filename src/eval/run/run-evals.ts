import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { createVitest, type Vitest } from 'vitest/node';
import { ConfigError, TaskInputError } from '../../core/errors.js';
import { outsideProblem } from '../../core/inside-folder.js';
import { maskConfiguredKeys } from '../../core/secret-values.js';
import { modelTimeoutFrom } from '../../model-api/call-deadline.js';
import type { FixtureSource } from '../../replay/cassette.js';
import type { Matching } from '../../replay/replay-cursor.js';
import type { ShardSelection } from '../shard/shard-result-schema.js';
import { ASSERTION_VALUE_CHARS } from '../spec/assertion-text.js';
import { encodeModelChoice, type ModelChoice } from '../spec/model-choice.js';
import { PRICES_FILE } from '../spec/price-table.js';
import { checkSelection, missingNames, suiteMatches, unselectedRows } from '../spec/selection.js';
import {
  ALL_RECORDED_TRIALS,
  EVAL_ENV,
  type EvalMode,
  type JudgeOffline,
  readEvalSettings,
} from '../spec/settings.js';
import { formatShard, type Shard } from '../spec/shard.js';
import type { TrialRecord } from '../spec/trial-record.js';
import type { FinishedRun, LoadedReference, ReportOptions } from './finish-run.js';
import { checkWholeSuiteReference, referenceFileOf } from './reference-file.js';
import { EvalReporter, RUN_ERROR_ADVICE, type UnfinishedTrial } from './reporter.js';
import { checkTracesFolder } from './traces-folder.js';
import { evalConfigOf, narrowedPlan } from './vitest-files.js';

export interface RunEvalsOptions extends ReportOptions {
  projectDir: string;
  mode: Exclude<EvalMode, 'verify'>;
  trials: number;
  /** Only these trial numbers (re-recording some trials), instead of 1..trials. */
  trialNumbers?: number[];
  /** `--trials all`: each row replays every trial recorded for it; `trials` is then ignored. */
  recordedTrials?: boolean;
  /** Only these rows (keyOf keys): record --until-decided records the rows still open. */
  rows?: string[];
  tasks?: string[];
  variants?: string[];
  suites?: string[];
  matching?: Matching;
  source?: FixtureSource;
  missingOnly?: boolean | 'or-stale';
  concurrency?: number;
  /** `--model`: for every agent, or per suite. */
  models?: ModelChoice;
  /** `--case q1,q7`: these cases of dataset tasks only. */
  cases?: string[];
  /** `--cases N`: N cases of each dataset task, the same on every run. */
  caseSample?: number;
  /** Run one slice (`--shard i/n`); in replay, writes reports/shards/shard-i-of-n.json. */
  shard?: Shard;
  /** Judged checks: live or recorded instead of replayed, other models, more samples. */
  judge?: {
    mode?: 'replay' | 'live' | 'record';
    models?: string[];
    samples?: number;
    /** `record --judge-only`: replay the agent, record only the judge calls. */
    only?: boolean;
    /** `record --judge-simulated` / `--judge-script`: the agent live, its judges offline. */
    offline?: JudgeOffline;
  };
  log?: (line: string) => void;
  onTrial?: (record: TrialRecord, ms: number) => void;
}

export interface RunEvalsResult extends FinishedRun {
  records: TrialRecord[];
  /** Trials that failed before writing a record (timed out, threw): no record, no verdict. */
  unfinished: UnfinishedTrial[];
  /** Eval files that failed to load and errors outside any trial (they fail the gate). */
  loadErrors: string[];
  /** Every suite the loaded eval files declare, selected or not. */
  suites: string[];
}

/**
 * Run the eval suites in vitest, then build, write and gate the report.
 * Returns the report; its `gate.passed` is the exit code's verdict. Throws a TaskInputError,
 * one line per file, when a rubric or human-labels file a task names is missing or wrong.
 */
export async function runEvals(options: RunEvalsOptions): Promise<RunEvalsResult> {
  const projectDir = resolve(options.projectDir);
  // Read by every trial in the worker (adapter agents get it): a bad value is one line here.
  modelTimeoutFrom(process.env);
  if (options.mode === 'replay')
    checkWholeSuiteReference(options, options.updateReference, 'this run selects');
  // Reports and gate reasons mask the configured keys' exact values, whatever their shape.
  maskConfiguredKeys(process.env);
  const loadReportSide = reportSideLoader();
  // Only a whole replay compares: recording and a shard never read (or trip over) a reference.
  // A reference is still read and checked before any trial runs.
  const compares = options.mode === 'replay' && !options.shard;
  const comparison =
    compares && (options.referenceFrom || referenceFileOf(projectDir, options.compare))
      ? await (await loadReportSide()).loadComparison(projectDir, options)
      : {};
  const { reference } = comparison;
  // A wrong prices file is bad input before any trial runs (or is paid for), not after.
  const prices = existsSync(join(projectDir, PRICES_FILE))
    ? await (await loadReportSide()).readPricesFile(projectDir)
    : undefined;
  const config = evalConfigOf(projectDir);
  await checkWritesInside(projectDir, options);
  await checkTracesFolder(projectDir, options);
  setEnv(options, projectDir);
  const reporter = new EvalReporter({
    root: projectDir,
    // The HTML report's transcripts are read during the run; a shard writes no HTML.
    preloadTranscripts: options.writeReports !== false && !options.shard,
    onRunStart: () => void loadReportSide(),
    ...(options.onTrial && { onTrial: options.onTrial }),
  });
  const narrowed = await runEvalFiles(options, {
    projectDir,
    config,
    concurrency: options.concurrency,
    reporter,
  });
  // A rubric or human-labels file is missing or wrong: bad input, before anything else is said.
  if (reporter.inputErrors.length > 0) throw new TaskInputError(reporter.inputErrors.join('\n'));
  checkSelection(options, reporter, readEvalSettings());
  const { finishRun } = await loadReportSide();
  const { input, problems } = gateInput(projectDir, options, reporter, narrowed, reference);
  if (options.shard && options.mode === 'replay' && options.writeReports !== false) {
    // A slice: its records go to a partial result; the report and the gate come at --merge.
    const file = await writeShard(projectDir, options, options.shard, reporter, input);
    const finished = await finishRun(
      { ...input, reference: undefined },
      { ...options, writeReports: false },
    );
    return {
      ...finished,
      ...problems,
      records: reporter.records,
      suites: [...reporter.knownSuites].sort(),
      written: [relative(projectDir, file)],
    };
  }
  const finished = await finishRun(
    { ...input, ...comparison, prices, transcripts: reporter.transcripts },
    options,
  );
  return {
    ...finished,
    ...problems,
    records: reporter.records,
    suites: [...reporter.knownSuites].sort(),
  };
}

/**
 * The report side (schemas, renderers, zod, cli-table3), loaded once the trials start, while
 * this thread waits for the worker, not before the worker can start.
 */
function reportSideLoader(): () => Promise<typeof import('./finish-run.js')> {
  let reportSide: Promise<typeof import('./finish-run.js')> | undefined;
  return () => {
    if (!reportSide) {
      reportSide = import('./finish-run.js');
      // Loaded ahead of its use: a failure is reported where it is awaited, not as unhandled.
      reportSide.catch(() => {});
    }
    return reportSide;
  };
}

type EvalRun = Omit<Parameters<typeof runVitest>[0], 'choose'>;

/**
 * Run the selected eval files. A --task replay loads only the files that name the task, and
 * the others only when those do not declare it; true when the run stayed narrowed that way.
 */
async function runEvalFiles(options: RunEvalsOptions, run: EvalRun): Promise<boolean> {
  // Not a recording (npm run record loads every file). Not a shard: its result lists every
  // declared row, which the merge checks its coverage against.
  const narrowTo =
    options.mode !== 'replay' || options.shard || !options.tasks?.length
      ? undefined
      : options.tasks;
  let rest: string[] | undefined;
  await runVitest({
    ...run,
    ...(narrowTo && {
      choose: async (vitest: Vitest) => {
        const plan = await narrowedPlan(vitest, narrowTo);
        rest = plan?.rest;
        return plan?.first;
      },
    }),
  });
  const unknownSuite = (options.suites ?? []).some(
    (asked) => ![...run.reporter.knownSuites].some((suite) => suiteMatches(asked, suite)),
  );
  if (rest && (missingNames(narrowTo ?? [], run.reporter.knownTasks).length > 0 || unknownSuite)) {
    // A file named the task without declaring it (a comment; the id computed elsewhere): load
    // the files the first pass left out, so the task is found or the error lists every known
    // task. The same reporter: the first pass's trials count once, and do not run again.
    const files = rest;
    await runVitest({ ...run, choose: async () => files });
    return false;
  }
  return rest !== undefined;
}

/** What the report and the gate are made from, and the problems the CLI lists. */
function gateInput(
  projectDir: string,
  options: RunEvalsOptions,
  reporter: EvalReporter,
  narrowed: boolean,
  reference: LoadedReference | undefined,
) {
  const trials = options.recordedTrials
    ? Math.max(0, ...reporter.records.map((record) => record.trial))
    : options.trialNumbers
      ? options.trialNumbers.length
      : options.trials;
  const floors = [...reporter.floors].flatMap(([task, taskFloors]) =>
    taskFloors.map((floor) => ({ task, floor })),
  );
  // Unhandled errors fail the gate as load errors do: both happened outside any trial's verdict.
  const loadErrors = [
    ...reporter.loadErrors,
    ...reporter.runErrors.map((error) => `${error}. ${RUN_ERROR_ADVICE}`),
  ];
  const input = {
    projectDir,
    records: reporter.records,
    floors,
    // A trial without a record fails the gate as a load error does: it has no verdict.
    loadErrors: [...loadErrors, ...reporter.unfinished.map((trial) => trial.reason)],
    // A narrowed run did not load the files of the tasks it did not select: their reference
    // rows count as declared, so they are "not run (not selected)", not "gone". A whole run
    // tells "gone" apart.
    declared:
      narrowed && reference
        ? new Set([...reporter.declared, ...unselectedRows(reference.report.tasks, options)])
        : reporter.declared,
    trials,
  };
  return {
    input,
    problems: { unfinished: reporter.unfinished, loadErrors },
  };
}

/** A shard's partial result, reports/shards/shard-i-of-n.json; returns its path. */
async function writeShard(
  projectDir: string,
  options: RunEvalsOptions,
  shard: Shard,
  reporter: EvalReporter,
  input: ReturnType<typeof gateInput>['input'],
): Promise<string> {
  const { shardResultPath, writeShardResult } = await import('../shard/shard-result.js');
  const { currentCommit } = await import('../shard/commit.js');
  const file = shardResultPath(projectDir, shard);
  const folder = relative(projectDir, dirname(file));
  const outside = await outsideProblem(projectDir, dirname(file), folder, 'the shard result');
  if (outside) throw new ConfigError(outside);
  await writeShardResult(file, {
    commit: await currentCommit(projectDir),
    shard,
    trials: input.trials,
    selection: selectionOf(options),
    records: reporter.records,
    floors: input.floors,
    loadErrors: input.loadErrors,
    declared: [...reporter.declared],
    ...(reporter.cases.size > 0 && {
      cases: Object.fromEntries([...reporter.cases].map(([task, cases]) => [task, cases.selected])),
    }),
  });
  return file;
}

/** One vitest run of the eval files with `reporter`; `choose` gives the files (else every one). */
export async function runVitest(run: {
  projectDir: string;
  config: string;
  concurrency: number | undefined;
  reporter: EvalReporter;
  choose?: (vitest: Vitest) => Promise<string[] | undefined>;
}): Promise<void> {
  // As vitest's own startVitest does before it creates the run. (Its other branches are left
  // out on purpose: the coverage and environment-package checks, standalone, mergeReports,
  // listTags and clearCache do not apply to an eval run.)
  process.env.TEST = 'true';
  process.env.VITEST = 'true';
  process.env.NODE_ENV ??= 'test';
  const vitest = await createVitest(
    'test',
    {
      config: run.config,
      root: run.projectDir,
      watch: false,
      reporters: [run.reporter],
      // Chai cuts a value in an assertion message at 40 characters: too little of an answer.
      chaiConfig: { truncateThreshold: ASSERTION_VALUE_CHARS },
      ...(run.concurrency !== undefined && { maxConcurrency: run.concurrency }),
    },
    {},
    { stdout: process.stdout, stderr: process.stderr },
  );
  try {
    await vitest.start(await run.choose?.(vitest));
  } catch (error) {
    // As startVitest: no eval files is for checkSelection to say ("no eval tasks found");
    // anything else is printed, and the reporter's state says what ran.
    if ((error as { code?: unknown }).code !== 'VITEST_FILES_NOT_FOUND') {
      vitest.logger.printError(error, { fullStack: true, type: 'Unhandled Error' });
      process.exitCode = 1;
    }
  } finally {
    await vitest.close();
    // An error raised while vitest ended its worker arrives after the run's end was reported.
    run.reporter.addLateErrors(vitest.state.getUnhandledErrors());
  }
}

/** What a shard was asked to run; every shard of one run must agree on it. */
function selectionOf(options: RunEvalsOptions): ShardSelection {
  return {
    trials: options.trials,
    ...(options.trialNumbers && { trialNumbers: options.trialNumbers }),
    ...(options.tasks && { tasks: options.tasks }),
    ...(options.variants && { variants: options.variants }),
    ...(options.suites && { suites: options.suites }),
    ...(options.matching && { matching: options.matching }),
    ...(options.cases && { cases: options.cases }),
    ...(options.caseSample !== undefined && { caseSample: options.caseSample }),
  };
}

/**
 * The folders a run writes (fixtures/ when recording, reports/ when it writes reports), checked
 * before any trial runs: one that a symlink leads outside the project is refused. (The traces
 * folder is checkTracesFolder's; each cassette's folder is checked again when it is written.)
 */
export async function checkWritesInside(
  projectDir: string,
  options: RunEvalsOptions,
): Promise<void> {
  const folders = [
    ...(options.mode === 'record' ? [['fixtures', 'recording'] as const] : []),
    ...(options.writeReports !== false ? [['reports', 'writing the reports'] as const] : []),
  ];
  for (const [folder, doing] of folders) {
    const outside = await outsideProblem(projectDir, join(projectDir, folder), folder, doing);
    if (outside) throw new ConfigError(outside);
  }
}

export function setEnv(
  options: Omit<RunEvalsOptions, 'mode'> & { mode: EvalMode },
  projectDir: string,
): void {
  const env: Record<string, string | undefined> = {
    [EVAL_ENV.root]: projectDir,
    [EVAL_ENV.mode]: options.mode,
    [EVAL_ENV.trials]: options.recordedTrials ? ALL_RECORDED_TRIALS : String(options.trials),
    [EVAL_ENV.rows]: options.rows && JSON.stringify(options.rows),
    [EVAL_ENV.trial]: options.trialNumbers?.join(','),
    [EVAL_ENV.tasks]: options.tasks?.join(','),
    [EVAL_ENV.variants]: options.variants?.join(','),
    [EVAL_ENV.suites]: options.suites?.join(','),
    [EVAL_ENV.matching]: options.matching,
    [EVAL_ENV.source]: options.source,
    [EVAL_ENV.missingOnly]:
      options.missingOnly === 'or-stale' ? 'or-stale' : options.missingOnly ? '1' : undefined,
    [EVAL_ENV.model]: options.models && encodeModelChoice(options.models),
    [EVAL_ENV.concurrency]:
      options.concurrency === undefined ? undefined : String(options.concurrency),
    [EVAL_ENV.shard]: options.shard && formatShard(options.shard),
    [EVAL_ENV.judgeMode]: options.judge?.mode,
    [EVAL_ENV.judgeModels]: options.judge?.models?.join(','),
    [EVAL_ENV.judgeSamples]:
      options.judge?.samples === undefined ? undefined : String(options.judge.samples),
    [EVAL_ENV.judgeOnly]: options.judge?.only ? '1' : undefined,
    [EVAL_ENV.judgeOffline]: options.judge?.offline,
    [EVAL_ENV.cases]: options.cases?.join(','),
    [EVAL_ENV.caseSample]:
      options.caseSample === undefined ? undefined : String(options.caseSample),
  };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}
