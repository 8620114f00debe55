import { ConfigError } from '../../core/errors.js';

/** The wire formats a judge can speak: Anthropic Messages, or any OpenAI-compatible endpoint. */
export type JudgeProvider = 'anthropic' | 'openai';

/** One judge model: `claude-sonnet-5` (Anthropic Messages) or `openai:gpt-5-mini`. */
export interface JudgeModel {
  provider: JudgeProvider;
  model: string;
  /** How it is named everywhere (flags, cassettes, reports): the model, `openai:` prefixed for OpenAI. */
  id: string;
}

/** Environment variables that point every judge somewhere else than the agent's provider. */
export const JUDGE_ENV = { baseURL: 'HARNESS_JUDGE_BASE_URL', apiKey: 'HARNESS_JUDGE_API_KEY' };

/** The judge model when neither the judge nor `--judge-model` names one. */
export const DEFAULT_JUDGE_MODEL = 'claude-sonnet-5';

/** At most this many samples per judge model and trial (`--judge-samples`, `samples`). */
export const MAX_JUDGE_SAMPLES = 100;

/** At most this many judge models per check. */
export const MAX_JUDGE_MODELS = 9;

/**
 * Read a judge model id. `openai:` or `anthropic:` in front picks the provider (the rest is the
 * model, colons and all: `openai:llama3:8b`); anything else is an Anthropic model.
 */
export function parseJudgeModel(text: string, where: string): JudgeModel {
  const trimmed = typeof text === 'string' ? text.trim() : '';
  const prefix = /^(openai|anthropic):(.*)$/.exec(trimmed);
  const provider: JudgeProvider = prefix?.[1] === 'openai' ? 'openai' : 'anthropic';
  const model = prefix ? (prefix[2] ?? '') : trimmed;
  if (model === '' || !/^[\w.:/@-]{1,120}$/.test(model)) {
    throw new ConfigError(
      `${where} names the judge model '${String(text)}': give a model id such as claude-sonnet-5, or openai:gpt-5-mini for an OpenAI-compatible endpoint`,
    );
  }
  return { provider, model, id: provider === 'openai' ? `openai:${model}` : model };
}

/** A list of judge models (a flag's `a,b` or a judge's `models`), each once. */
export function parseJudgeModels(texts: readonly string[], where: string): JudgeModel[] {
  if (texts.length === 0) {
    throw new ConfigError(`${where} names no judge model: give one, e.g. ${DEFAULT_JUDGE_MODEL}`);
  }
  if (texts.length > MAX_JUDGE_MODELS) {
    throw new ConfigError(
      `${where} names ${texts.length} judge models: at most ${MAX_JUDGE_MODELS}`,
    );
  }
  const models = texts.map((text) => parseJudgeModel(text, where));
  const twice = models.find(
    (model, index) => models.findIndex((other) => other.id === model.id) !== index,
  );
  if (twice) throw new ConfigError(`${where} names the judge model ${twice.id} twice`);
  return models;
}

/** A sample count from 1 to MAX_JUDGE_SAMPLES, or a ConfigError naming where it came from. */
export function checkJudgeSamples(value: unknown, where: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1) {
    if (value <= MAX_JUDGE_SAMPLES) return value;
  }
  throw new ConfigError(
    `${where} is ${typeof value === 'string' ? `'${value}'` : String(value)}: give a whole number of judge samples from 1 to ${MAX_JUDGE_SAMPLES}`,
  );
}
