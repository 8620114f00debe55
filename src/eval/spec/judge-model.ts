import { ConfigError } from '../../core/errors.js';
import type { ModelApi } from '../../model-api/retryable-answer.js';

/** Whose key and endpoint a judge uses: Anthropic's, or any OpenAI-compatible one. */
export type JudgeProvider = 'anthropic' | 'openai';

/**
 * One judge model: `claude-sonnet-5` (the Messages API), `openai:gpt-5-mini` (Chat Completions)
 * or `openai:responses:gpt-5-mini` (the OpenAI Responses API).
 */
export interface JudgeModel {
  provider: JudgeProvider;
  /** The wire format it speaks. */
  api: ModelApi;
  model: string;
  /** How it is named everywhere (flags, cassettes, reports): the model, with its prefix for OpenAI. */
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

/** The prefix of a judge model id, and what it speaks. */
const PREFIXES = [
  ['openai:responses:', 'openai', 'responses'],
  ['openai:', 'openai', 'chat_completions'],
  ['anthropic:', 'anthropic', 'messages'],
] as const;

/**
 * Read a judge model id. `openai:responses:` in front is the OpenAI Responses API, `openai:`
 * Chat Completions, `anthropic:` the Messages API (the rest is the model, colons and all:
 * `openai:llama3:8b`); anything else is an Anthropic model.
 */
export function parseJudgeModel(text: string, where: string): JudgeModel {
  const trimmed = typeof text === 'string' ? text.trim() : '';
  const [prefix, provider, api] = PREFIXES.find(([start]) => trimmed.startsWith(start)) ?? [
    '',
    'anthropic',
    'messages',
  ];
  const model = trimmed.slice(prefix.length);
  if (model === '' || !/^[\w.:/@-]{1,120}$/.test(model)) {
    throw new ConfigError(
      `${where} names the judge model '${String(text)}': give a model id such as claude-sonnet-5, openai:gpt-5-mini for an OpenAI-compatible Chat Completions endpoint, or openai:responses:gpt-5-mini for the Responses API`,
    );
  }
  return { provider, api, model, id: provider === 'openai' ? `${prefix}${model}` : model };
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
