import { resolve } from 'node:path';
import { parseShard, type Shard } from '../shard/shard.js';

/** Where each trial's trace goes: runs/eval/<task>/<variant>/trial-<n>.jsonl. */
export function evalRunsDir(projectDir: string): string {
  return resolve(projectDir, 'runs', 'eval');
}

/**
 * How an eval run was asked for. The CLIs (`npm run eval`, `npm run record`) set
 * these environment variables before starting vitest, so a plain
 * `vitest --config vitest.evals.config.ts` works too with the defaults.
 */
export interface EvalSettings {
  mode: 'replay' | 'record';
  trialNumbers: number[];
  matching: 'strict' | 'lenient';
  projectDir: string;
  fixturesDir: string;
  runsDir: string;
  /** Record mode: where the responses come from. */
  source: 'live' | 'simulator';
  /** Record mode: keep existing cassettes, record only the missing ones. */
  missingOnly: boolean;
  /** Record mode: model calls in flight at once, shared by all trials. */
  concurrency: number;
  /** Replay: override the recorded model id (makes every fixture stale). Record: the model. */
  model: string | undefined;
  /** Run only this slice of the selected trials (`--shard i/n`). */
  shard: Shard | undefined;
  selects(suite: string, task: string): boolean;
  selectsVariant(variant: string): boolean;
}

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
} as const;

export const DEFAULT_TRIALS = 3;

const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean) ?? [];

/**
 * `--suite NAME` selects the suite of that name or, as a shorthand, every suite whose name
 * starts with it (case-insensitive): `--suite debug` runs `debug-agent`. The eval run
 * refuses a name that matched more than one suite (see run-evals.ts), so a suite whose
 * name starts another's (`debug`, `debug-agent`) needs a name that tells them apart.
 */
export function suiteMatches(asked: string, suite: string): boolean {
  return suite.toLowerCase().startsWith(asked.toLowerCase());
}

/**
 * Which (suite, task) and which variants a selection picks: `--suite` by name or prefix,
 * `--task` case-blind, `--variant` exactly; an empty list picks everything.
 */
export function selectionFilter(selection: {
  tasks?: readonly string[] | undefined;
  variants?: readonly string[] | undefined;
  suites?: readonly string[] | undefined;
}): Pick<EvalSettings, 'selects' | 'selectsVariant'> {
  const tasks = new Set((selection.tasks ?? []).map((task) => task.toUpperCase()));
  const variants = new Set(selection.variants ?? []);
  const suites = selection.suites ?? [];
  return {
    selects: (suite, task) =>
      (suites.length === 0 || suites.some((asked) => suiteMatches(asked, suite))) &&
      (tasks.size === 0 || tasks.has(task.toUpperCase())),
    selectsVariant: (variant) => variants.size === 0 || variants.has(variant),
  };
}

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
  return {
    mode: env[EVAL_ENV.mode] === 'record' ? 'record' : 'replay',
    trialNumbers,
    matching: env[EVAL_ENV.matching] === 'lenient' ? 'lenient' : 'strict',
    projectDir,
    fixturesDir: resolve(projectDir, 'fixtures'),
    runsDir: evalRunsDir(projectDir),
    source: env[EVAL_ENV.source] === 'simulator' ? 'simulator' : 'live',
    missingOnly: env[EVAL_ENV.missingOnly] === '1',
    model: env[EVAL_ENV.model] || undefined,
    concurrency: Number(env[EVAL_ENV.concurrency]) > 0 ? Number(env[EVAL_ENV.concurrency]) : 4,
    shard: shardText ? parseShard(shardText, EVAL_ENV.shard) : undefined,
    ...selectionFilter({
      tasks: list(env[EVAL_ENV.tasks]),
      variants: list(env[EVAL_ENV.variants]),
      suites: list(env[EVAL_ENV.suites]),
    }),
  };
}
