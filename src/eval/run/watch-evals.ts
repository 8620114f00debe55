import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createVitest, type Vitest } from 'vitest/node';
import { ConfigError, errorMessage, TaskInputError } from '../../core/errors.js';
import { maskConfiguredKeys } from '../../core/secret-values.js';
import { modelTimeoutFrom } from '../../model-api/call-deadline.js';
import { gateLine } from '../report/gate-line.js';
import { ASSERTION_VALUE_CHARS } from '../spec/assertion-text.js';
import { PRICES_FILE } from '../spec/price-table.js';
import { checkSelection } from '../spec/selection.js';
import { readEvalSettings } from '../spec/settings.js';
import { finishRun, loadComparison, readPricesFile } from './finish-run.js';
import { referenceFileOf } from './reference-file.js';
import { RUN_ERROR_ADVICE } from './reporter.js';
import { checkWritesInside, type RunEvalsOptions, setEnv } from './run-evals.js';
import { checkTracesFolder } from './traces-folder.js';
import { evalConfigOf } from './vitest-files.js';
import { WatchReporter, type WatchState } from './watch-reporter.js';
import { watchTriggers } from './watch-triggers.js';

/** What `eval --watch` runs: a replay, never a recording, a shard or a new reference. */
export type WatchEvalsOptions = Omit<
  RunEvalsOptions,
  'mode' | 'shard' | 'updateReference' | 'source' | 'onTrial'
>;

export const WATCHING =
  'watching evals, their agents, prompts and fixtures for changes (Ctrl-C to stop)';

/**
 * `npm run eval -- --watch`: vitest's own watch mode over the eval files, replaying the
 * committed fixtures. After the first run and after each re-run it prints the report (every
 * file's latest trials) with the stale trials and their re-record commands, and writes
 * reports/latest.*. Which files a change re-runs is vitest's: its module graph for the eval
 * files and what they import, and `watchTriggers` for the files trials read while they run.
 * Resolves with 0 on Ctrl-C; throws (bad input) when the first run cannot report.
 */
export async function watchEvals(options: WatchEvalsOptions): Promise<number> {
  const print = (text: string) => console.log(text);
  const run = { ...options, mode: 'replay' as const, updateReference: false };
  const { projectDir } = options;
  modelTimeoutFrom(process.env);
  maskConfiguredKeys(process.env);
  const comparison =
    options.referenceFrom || referenceFileOf(projectDir, options.compare)
      ? await loadComparison(projectDir, run)
      : {};
  const prices = existsSync(join(projectDir, PRICES_FILE))
    ? await readPricesFile(projectDir)
    : undefined;
  const config = evalConfigOf(projectDir);
  await checkWritesInside(projectDir, run);
  await checkTracesFolder(projectDir, run);
  setEnv(run, projectDir);
  let first = true;
  const report = async (state: WatchState, trigger: string | undefined) => {
    const started = first;
    first = false;
    const input = state.run.inputErrors;
    if (input.length > 0) {
      if (started) throw new TaskInputError(input.join('\n'));
      for (const line of input) print(`eval: ${line}`);
      return print(WATCHING);
    }
    if (started) checkSelection(run, state.run, readEvalSettings());
    const finished = await finishRun(
      { ...inputOf(projectDir, run, state), ...comparison, prices },
      run,
    );
    const ran =
      state.ran.length > 3
        ? `${state.ran.length} eval files`
        : state.ran.map((file) => relative(projectDir, file)).join(', ');
    print(
      [
        trigger === undefined ? '' : `eval --watch: ${trigger} changed; re-ran ${ran}\n`,
        finished.terminal,
        ...finished.notes.map((note) => `note: ${note}\n`),
        `${state.records.length} trials; wrote ${finished.written.join(', ') || 'nothing'}${finished.writeError ? ` (${finished.writeError})` : ''}`,
        gateLine(finished.report.gate),
        WATCHING,
      ]
        .filter(Boolean)
        .join('\n'),
    );
  };
  const reporter = new WatchReporter(projectDir, async (state, trigger) => {
    // The first run's report comes after start(): a bad selection there ends the watch.
    if (first) return;
    await report(state, trigger).catch((error: unknown) => print(`eval: ${errorMessage(error)}`));
  });
  const signal = untilSignal();
  let vitest: Vitest | undefined;
  try {
    vitest = await createWatch(projectDir, config, reporter, () => vitest);
    const watching = vitest;
    // Ctrl-C during a run: the trials under way finish, the others are not started.
    void signal.stopped.then(() => watching.cancelCurrentRun('keyboard-input'));
    await startWatch(vitest);
    if (!signal.isStopped()) await report(reporter.latest(), undefined);
    await signal.stopped;
  } finally {
    signal.dispose();
    await vitest?.close();
  }
  return 0;
}

/** vitest in watch mode over the eval files, not started yet. */
async function createWatch(
  projectDir: string,
  config: string,
  reporter: WatchReporter,
  current: () => Vitest | undefined,
): Promise<Vitest> {
  // As runVitest (run-evals.ts): what vitest's own startVitest sets before it creates the run.
  process.env.TEST = 'true';
  process.env.VITEST = 'true';
  process.env.NODE_ENV ??= 'test';
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const before = signals.map((name) => new Set(process.listeners(name)));
  const vitest = await createVitest(
    'test',
    {
      config,
      root: projectDir,
      watch: true,
      reporters: [reporter],
      chaiConfig: { truncateThreshold: ASSERTION_VALUE_CHARS },
      watchTriggerPatterns: watchTriggers(projectDir, {
        filesOf: (task) => reporter.filesOf(task),
        evalFiles: () => current()?.state.getFilepaths() ?? [],
      }),
    },
    {},
    { stdout: process.stdout, stderr: process.stderr },
  );
  // A changed eval config makes vitest close and set up its server again; its own startVitest
  // then starts again (onAfterSetServer, internal), and so does the watch: every file re-runs.
  vitest.onServerRestart(() => reporter.onWatcherRerun([], relative(projectDir, config)));
  (vitest as unknown as { onAfterSetServer(fn: () => void): void }).onAfterSetServer(() => {
    vitest.start().catch((error: unknown) => console.log(`eval: ${errorMessage(error)}`));
  });
  // vitest's logger ends the process on Ctrl-C at once, with vitest's exit code (1 once any
  // trial failed, as baseline trials do): the watch closes vitest and ends with 0 instead.
  signals.forEach((name, index) => {
    for (const listener of process.listeners(name)) {
      if (!before[index]!.has(listener)) process.off(name, listener);
    }
  });
  return vitest;
}

/** The first run; vitest then waits for changes. */
async function startWatch(vitest: Vitest): Promise<void> {
  try {
    await vitest.start();
  } catch (error) {
    if ((error as { code?: unknown }).code === 'VITEST_FILES_NOT_FOUND') {
      throw new ConfigError(
        'no eval files to watch: add evals/*.eval.ts (npx harness-evals init scaffolds one)',
      );
    }
    throw error;
  }
}

/** The report's input from every file's latest trials, and the latest run's problems. */
function inputOf(projectDir: string, options: WatchEvalsOptions, state: WatchState) {
  const trials = options.recordedTrials
    ? Math.max(0, ...state.records.map((record) => record.trial))
    : options.trialNumbers
      ? options.trialNumbers.length
      : options.trials;
  const { run } = state;
  return {
    projectDir,
    records: state.records,
    floors: [...state.floors].flatMap(([task, floors]) => floors.map((floor) => ({ task, floor }))),
    loadErrors: [
      ...run.loadErrors,
      ...run.runErrors.map((error) => `${error}. ${RUN_ERROR_ADVICE}`),
      ...run.unfinished.map((trial) => trial.reason),
    ],
    declared: state.declared,
    trials,
  };
}

/** Stopped on the first SIGINT or SIGTERM (Ctrl-C), which then no longer ends the process. */
function untilSignal() {
  let stopped = false;
  let done = () => {};
  const promise = new Promise<void>((resolve) => {
    done = () => {
      stopped = true;
      resolve();
    };
  });
  process.on('SIGINT', done);
  process.on('SIGTERM', done);
  return {
    stopped: promise,
    isStopped: () => stopped,
    dispose: () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
    },
  };
}
