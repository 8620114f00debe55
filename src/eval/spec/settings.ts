import { resolve } from 'node:path';
import type { FixtureSource } from '../../replay/cassette.js';
import type { Matching } from '../../replay/replay-cursor.js';
import type { CaseFilter } from './case-selection.js';
import { type JudgeModel, parseJudgeModels } from './judge-model.js';
import { decodeModelChoice, type ModelChoice } from './model-choice.js';
import { keyOf, type SelectionFilter, selectionFilter } from './selection.js';
import { parseShard, type Shard } from './shard.js';

/** Where each trial's trace goes: runs/eval/<task>/<variant>/trial-<n>.jsonl. */
export function evalRunsDir(projectDir: string): string {
  return resolve(projectDir, 'runs', 'eval');
}

/**
 * How an eval run was asked for. The CLIs (`npm run eval`, `npm run record`) set
 * these environment variables before starting vitest, so a plain
 * `vitest --config vitest.evals.config.ts` works too with the defaults.
 */
/**
 * Replay the committed cassettes, record them (npm run record), or re-derive them with the
 * task's own scripts, running no agent (`record --verify`).
 */
export type EvalMode = 'replay' | 'record' | 'verify';

export interface EvalSettings extends SelectionFilter, CaseFilter {
  mode: EvalMode;
  /** The trials of every row; empty with `recordedTrials`. */
  trialNumbers: number[];
  /** `--trials all`: each row replays every trial recorded for it (1..its highest), not 1..N. */
  recordedTrials: boolean;
  /** Only these rows, as keyOf keys (record --until-decided records the open rows only). */
  selectsRow(suite: string, task: string, variant: string): boolean;
  matching: Matching;
  projectDir: string;
  fixturesDir: string;
  runsDir: string;
  /** Record mode: where the responses come from. */
  source: FixtureSource;
  /**
   * Record mode: keep existing cassettes, record only the missing ones (`true`), or the missing
   * and the stale ones (`'or-stale'`, record --until-decided).
   */
  missingOnly: boolean | 'or-stale';
  /** Record mode: model calls in flight at once, shared by all trials. */
  concurrency: number;
  /** `--model`: record: the models to record with; replay: overrides of the recorded model (every fixture stale). */
  models: ModelChoice;
  /** Run only this slice of the selected trials (`--shard i/n`). */
  shard: Shard | undefined;
  /** How judged checks get their verdicts (see JudgeSettings). */
  judge: JudgeSettings;
}

/**
 * Judged checks: replayed from each trial's judge cassette (eval), asked live without
 * recording (`eval --rescore`), or recorded (`--rescore --record-judge`; `record`, which with
 * `--judge-only` replays the agent and records only the judge).
 */
export interface JudgeSettings {
  mode: 'replay' | 'live' | 'record';
  /** `--judge-model`: every judged check asks these models. */
  models: JudgeModel[] | undefined;
  /** `--judge-samples`: verdicts per judge model and trial. */
  samples: number | undefined;
  /** `record --judge-only`: the agent is replayed, only the judge calls are recorded. */
  only: boolean;
  /** `record --judge-simulated` / `--judge-script`: the agent records live, its judges offline. */
  offline: JudgeOffline | undefined;
}

/**
 * Judges answered offline while the agent records live: `simulator`, each judge's judge script
 * or else the simulator's built-in judge; `script`, each judge's own script, and a judge
 * without one is not recorded.
 */
export type JudgeOffline = 'simulator' | 'script';

export const EVAL_ENV = {
  mode: 'HARNESS_EVAL_MODE',
  trials: 'HARNESS_EVAL_TRIALS',
  trial: 'HARNESS_EVAL_TRIAL',
  tasks: 'HARNESS_EVAL_TASKS',
  variants: 'HARNESS_EVAL_VARIANTS',
  suites: 'HARNESS_EVAL_SUITES',
  matching: 'HARNESS_EVAL_MATCHING',
  source: 'HARNESS_EVAL_SOURCE',
  missingOnly: 'HARNESS_EVAL_MISSING_ONLY',
  model: 'HARNESS_EVAL_MODEL',
  concurrency: 'HARNESS_EVAL_CONCURRENCY',
  root: 'HARNESS_EVAL_ROOT',
  shard: 'HARNESS_EVAL_SHARD',
  judgeMode: 'HARNESS_EVAL_JUDGE_MODE',
  judgeModels: 'HARNESS_EVAL_JUDGE_MODELS',
  judgeSamples: 'HARNESS_EVAL_JUDGE_SAMPLES',
  judgeOnly: 'HARNESS_EVAL_JUDGE_ONLY',
  judgeOffline: 'HARNESS_EVAL_JUDGE_OFFLINE',
  cases: 'HARNESS_EVAL_CASES',
  caseSample: 'HARNESS_EVAL_CASE_SAMPLE',
  rows: 'HARNESS_EVAL_ROWS',
} as const;

/** `--trials all`, as HARNESS_EVAL_TRIALS holds it. */
export const ALL_RECORDED_TRIALS = 'all';

export const DEFAULT_TRIALS = 3;

const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean) ?? [];

export function readEvalSettings(env: NodeJS.ProcessEnv = process.env): EvalSettings {
  const projectDir = resolve(env[EVAL_ENV.root] ?? process.cwd());
  // HARNESS_EVAL_TRIAL picks trials by number ("2" or "1,3"); otherwise trials 1..N.
  const picked = list(env[EVAL_ENV.trial]).map(Number);
  const trials = Number(env[EVAL_ENV.trials] ?? DEFAULT_TRIALS);
  const trialNumbers =
    picked.length > 0 && picked.every((n) => Number.isInteger(n) && n > 0)
      ? [...new Set(picked)].sort((a, b) => a - b)
      : Array.from(
          { length: Number.isInteger(trials) && trials > 0 ? trials : DEFAULT_TRIALS },
          (_, i) => i + 1,
        );
  const shardText = env[EVAL_ENV.shard];
  const recordedTrials = picked.length === 0 && env[EVAL_ENV.trials] === ALL_RECORDED_TRIALS;
  const rowsText = env[EVAL_ENV.rows];
  const rows = rowsText ? new Set(JSON.parse(rowsText) as string[]) : undefined;
  return {
    mode: modeOf(env[EVAL_ENV.mode]),
    trialNumbers: recordedTrials ? [] : trialNumbers,
    recordedTrials,
    selectsRow: (suite, task, variant) => !rows || rows.has(keyOf({ suite, task, variant })),
    matching: env[EVAL_ENV.matching] === 'lenient' ? 'lenient' : 'strict',
    projectDir,
    fixturesDir: resolve(projectDir, 'fixtures'),
    runsDir: evalRunsDir(projectDir),
    source: env[EVAL_ENV.source] === 'simulator' ? 'simulator' : 'live',
    missingOnly:
      env[EVAL_ENV.missingOnly] === 'or-stale' ? 'or-stale' : env[EVAL_ENV.missingOnly] === '1',
    models: decodeModelChoice(env[EVAL_ENV.model]),
    concurrency: Number(env[EVAL_ENV.concurrency]) > 0 ? Number(env[EVAL_ENV.concurrency]) : 4,
    shard: shardText ? parseShard(shardText, EVAL_ENV.shard) : undefined,
    judge: readJudgeSettings(env),
    cases: list(env[EVAL_ENV.cases]),
    caseSample:
      Number(env[EVAL_ENV.caseSample]) > 0
        ? Math.floor(Number(env[EVAL_ENV.caseSample]))
        : undefined,
    ...selectionFilter({
      tasks: list(env[EVAL_ENV.tasks]),
      variants: list(env[EVAL_ENV.variants]),
      suites: list(env[EVAL_ENV.suites]),
    }),
  };
}

function readJudgeSettings(env: NodeJS.ProcessEnv): JudgeSettings {
  const mode = env[EVAL_ENV.judgeMode];
  const models = list(env[EVAL_ENV.judgeModels]);
  const samples = Number(env[EVAL_ENV.judgeSamples]);
  const offline = env[EVAL_ENV.judgeOffline];
  return {
    mode: mode === 'live' || mode === 'record' ? mode : 'replay',
    models: models.length > 0 ? parseJudgeModels(models, EVAL_ENV.judgeModels) : undefined,
    samples: Number.isInteger(samples) && samples > 0 ? samples : undefined,
    only: env[EVAL_ENV.judgeOnly] === '1',
    offline: offline === 'simulator' || offline === 'script' ? offline : undefined,
  };
}

function modeOf(value: string | undefined): EvalMode {
  return value === 'record' || value === 'verify' ? value : 'replay';
}
