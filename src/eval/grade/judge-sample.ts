import { isTokenCount } from '../../core/token-count.js';
import { isJsonObject } from '../../model-api/answer-fields.js';
import type { Exchange } from '../../replay/cassette.js';
import type { JudgeModel } from '../spec/judge-model.js';
import type { SampleVerdict } from '../spec/judgment.js';
import { readVerdict } from './judge-verdict.js';

/** Token counts of a judge answer, in either wire format, when it reports them. */
function usageOf(body: unknown): { inputTokens?: number; outputTokens?: number } {
  if (!isJsonObject(body) || !isJsonObject(body.usage)) return {};
  const usage = body.usage;
  const input = usage.input_tokens ?? usage.prompt_tokens;
  const output = usage.output_tokens ?? usage.completion_tokens;
  return {
    ...(isTokenCount(input) && { inputTokens: input }),
    ...(isTokenCount(output) && { outputTokens: output }),
  };
}

/** One sample's verdict, read from the judge's answer as a cassette keeps it. */
export function sampleVerdictOf(
  exchange: Exchange,
  model: JudgeModel,
  sample: number,
): SampleVerdict {
  const { response } = exchange;
  const base = { model: model.id, sample, latencyMs: exchange.latencyMs };
  if ('events' in response) {
    return { ...base, error: 'malformed answer: a stream, where the judge was asked for JSON' };
  }
  const reading = readVerdict(model.api, response.status, response.body);
  const usage = usageOf(response.body);
  if ('error' in reading) return { ...base, ...usage, error: reading.error };
  return { ...base, ...usage, ...reading.verdict };
}
