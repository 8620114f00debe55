import { parseJudgeModel } from '../../spec/judge-model.js';
import type { JudgmentRecord } from '../../spec/judgment.js';
import { OURS, type PlanAttributes, type SpanPlan, span } from './span-plan.js';

/**
 * A judged check's calls, one `chat` span per sample, one after the other from `startMs`: the
 * judge model, its tokens and its latency (recorded when replayed). A judge asks after the
 * agent's run, so these follow it under the trial.
 */
export function judgeSpans(
  judgments: readonly JudgmentRecord[],
  startMs: number,
  common: PlanAttributes,
): SpanPlan[] {
  const spans: SpanPlan[] = [];
  let at = startMs;
  for (const judgment of judgments) {
    for (const sample of judgment.samples) {
      const judge = judgeModelOf(sample.model);
      const chat = span({
        name: `chat ${judge.model}`,
        kind: 'client',
        startMs: at,
        endMs: at + (sample.latencyMs ?? 0),
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': judge.provider,
          'gen_ai.system': judge.provider,
          'gen_ai.request.model': judge.model,
          ...(sample.inputTokens !== undefined && {
            'gen_ai.usage.input_tokens': sample.inputTokens,
          }),
          ...(sample.outputTokens !== undefined && {
            'gen_ai.usage.output_tokens': sample.outputTokens,
          }),
          [`${OURS}.judge.check`]: judgment.check,
          [`${OURS}.judge.sample`]: sample.sample,
          [`${OURS}.judge.calls`]: judgment.calls,
          ...(sample.error !== undefined && { 'error.type': 'judge_error' }),
          ...common,
          // Only a replayed judgment's calls are replayed (--rescore asks live).
          [`${OURS}.replayed`]: judgment.calls === 'replayed',
        },
        ...(sample.error !== undefined && { error: sample.error }),
      });
      spans.push(chat);
      at = chat.endMs;
    }
  }
  return spans;
}

/** A recorded judge model id as provider and model; an unreadable one is kept as it is. */
function judgeModelOf(id: string): { provider: string; model: string } {
  try {
    return parseJudgeModel(id, 'the judgment');
  } catch {
    return { provider: 'anthropic', model: id };
  }
}
