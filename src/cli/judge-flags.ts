import { MAX_JUDGE_SAMPLES, parseJudgeModels } from '../eval/spec/judge-model.js';
import { listFlag, nonEmpty, positiveInteger } from './args.js';

/**
 * `--judge-model ID[,ID...]` and `--judge-samples N`, shared by eval and record: checked before
 * anything runs (a model id that is not one, a model named twice, 0, -1 or 1000000 samples),
 * each a ConfigError of one line.
 */
export function judgeOverrides(values: {
  'judge-model'?: string | undefined;
  'judge-samples'?: string | undefined;
}): { models?: string[]; samples?: number } {
  const samples =
    values['judge-samples'] === undefined
      ? undefined
      : positiveInteger('--judge-samples', values['judge-samples'], 1, MAX_JUDGE_SAMPLES);
  const models = listFlag(
    nonEmpty(
      '--judge-model',
      values['judge-model'],
      'judge model ids, e.g. --judge-model claude-sonnet-5',
    ),
  );
  if (models) parseJudgeModels(models, '--judge-model');
  return { ...(models && { models }), ...(samples !== undefined && { samples }) };
}
