import { resolve } from 'node:path';
import { ConfigError, TaskInputError } from '../../core/errors.js';
import type { Policy } from '../../simulator/policy.js';
import { type HumanLabels, readHumanLabels } from './human-labels.js';
import { checkJudgeSamples, type JudgeModel, parseJudgeModels } from './judge-model.js';
import { EVAL_ENV } from './settings.js';
import { readTaskFile } from './task-files.js';

/** What the judge is shown beyond the task's prompt and the final answer. */
export interface JudgeInclude {
  /** The agent's tool calls, in order, with their inputs and decisions. */
  toolCalls?: boolean;
  /** The whole conversation: every message, tool result included (long results are cut). */
  transcript?: boolean;
}

export interface JudgeOptions {
  /** Names the verdict in reports, cassettes and human labels: letters, digits, `.`, `_`, `-`. */
  name: string;
  /** The rubric as text, or `{ file }` (relative to the project folder), read when the task loads. */
  rubric: string | { file: string };
  include?: JudgeInclude;
  /** A reference answer the judge may compare with. */
  reference?: string;
  /** A sample passes when its label is `pass` and its score is at least this (default 0.5). */
  threshold?: number;
  /** Judge models (`claude-sonnet-5`, `openai:gpt-5-mini`, `openai:responses:gpt-5-mini`); `--judge-model` overrides them. */
  models?: readonly string[];
  /** Verdicts asked of each judge model per trial (default 1); `--judge-samples` overrides it. */
  samples?: number;
  /** Sampling temperature of the judge (default 0). */
  temperature?: number;
  /** A committed file of human labels for some trials: the report then calibrates the judge. */
  humanLabels?: string;
  /** The offline judge `record --simulated` serves for this check (see defineJudgeScript). */
  modelScript?: Policy;
}

/** A model-graded check, as defineJudge made it: its rubric read, its options checked. */
export interface JudgeCheck {
  readonly name: string;
  readonly rubric: string;
  /** Where the rubric came from: its file, or `inline`. */
  readonly rubricSource: string;
  readonly include: Readonly<Required<JudgeInclude>>;
  readonly reference: string | undefined;
  readonly threshold: number;
  readonly models: readonly JudgeModel[] | undefined;
  readonly samples: number | undefined;
  readonly temperature: number;
  readonly humanLabels: HumanLabels | undefined;
  readonly modelScript: Policy | undefined;
}

export const DEFAULT_JUDGE_THRESHOLD = 0.5;
const JUDGE_NAME = /^[A-Za-z0-9_.-]{1,60}$/;

/** The project folder paths in a task are relative to (the eval run's root). */
function projectDir(): string {
  return resolve(process.env[EVAL_ENV.root] ?? process.cwd());
}

/**
 * A check graded by a model against a rubric. The judge answers through a forced tool call
 * (label, score 0..1, reasoning); anything else it answers is a judge error, never a pass.
 * Its calls are recorded and replayed like the agent's, in `trial-<n>.judge.json`.
 *
 * @example
 * defineTask({ ..., judges: [defineJudge({ name: 'polite-refusal',
 *   rubric: { file: 'evals/rubrics/polite-refusal.md' }, include: { toolCalls: true } })] });
 */
export function defineJudge(options: JudgeOptions): JudgeCheck {
  const name = typeof options?.name === 'string' ? options.name : '';
  if (!JUDGE_NAME.test(name)) {
    throw new ConfigError(
      `judge name ${JSON.stringify(options?.name)} is invalid: use 1-60 letters, digits, '.', '_' or '-'`,
    );
  }
  const where = `judge '${name}'`;
  const rubric = readRubric(options.rubric, where);
  const threshold = options.threshold ?? DEFAULT_JUDGE_THRESHOLD;
  for (const [field, value] of [
    ['threshold', threshold],
    ['temperature', options.temperature ?? 0],
  ] as const) {
    if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
      throw new ConfigError(`${where}: ${field} ${String(value)} is not a number from 0 to 1`);
    }
  }
  if (options.reference !== undefined && typeof options.reference !== 'string') {
    throw new ConfigError(`${where}: reference must be text`);
  }
  return {
    name,
    rubric: rubric.text,
    rubricSource: rubric.shown,
    include: {
      toolCalls: options.include?.toolCalls === true,
      transcript: options.include?.transcript === true,
    },
    reference: options.reference,
    threshold,
    models: options.models && parseJudgeModels(options.models, `${where}: models`),
    samples:
      options.samples === undefined
        ? undefined
        : checkJudgeSamples(options.samples, `${where}: samples`),
    temperature: options.temperature ?? 0,
    humanLabels:
      options.humanLabels === undefined
        ? undefined
        : readHumanLabels(options.humanLabels, name, projectDir()),
    modelScript: options.modelScript,
  };
}

function readRubric(rubric: JudgeOptions['rubric'], where: string) {
  if (typeof rubric === 'string') {
    if (rubric.trim() === '') {
      throw new TaskInputError(`${where}: the rubric is empty: write what a passing answer does`);
    }
    return { text: rubric, shown: 'inline' };
  }
  if (typeof rubric !== 'object' || rubric === null || typeof rubric.file !== 'string') {
    throw new ConfigError(`${where}: rubric must be text or { file: 'evals/rubrics/x.md' }`);
  }
  return readTaskFile(rubric.file, `${where}: the rubric`, projectDir());
}
