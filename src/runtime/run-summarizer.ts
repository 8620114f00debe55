import type Anthropic from '@anthropic-ai/sdk';
import type { Clock } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import type { ModelCallOptions, ModelClient } from '../model-api/model-client.js';
import { addUsage, anthropicUsage } from '../model-api/token-usage.js';
import { summaryRequest } from './history-summary.js';
import { contentOf, responseText } from './model-turn.js';
import { emptyStats } from './stop-rules.js';
import { modelCallEvent } from './trace.js';
import type { GuardedTrace } from './trace-guard.js';
import type { RunStats } from './types.js';

/**
 * The summary calls of one step, with what they cost. `summarizer(modelId)` summarises the
 * history `historyBudgetChars` drops: a failed summary costs the run nothing but the summary (it
 * resolves undefined and the plain note is sent). `spent()` is for the summary record a new
 * summary is journaled with, `addTo` for when none came of them (a failed summary's cost stays
 * in this process's stats only).
 */
export function summaryCost(
  context: { model: ModelClient; clock: Clock; trace?: GuardedTrace | undefined },
  callOptions: ModelCallOptions,
  /** The run's current step, named in the trace events. */
  step: () => number,
) {
  const { model, clock, trace } = context;
  const stats = emptyStats();
  return {
    summarizer:
      (modelId: string) =>
      async (dropped: Anthropic.MessageParam[], previous: string | undefined) => {
        const request = summaryRequest({ model: modelId, dropped, ...(previous && { previous }) });
        const started = clock.now();
        try {
          const response = await model.createMessage(request, callOptions);
          const ms = clock.now() - started;
          stats.modelMs += ms;
          addUsage(stats, anthropicUsage(response.usage));
          trace?.write({
            ...modelCallEvent(step(), response, ms),
            role: 'summarize',
            model: modelId,
          });
          // '' when the model gave none.
          const text = responseText(contentOf(response), ' ');
          if (!text)
            trace?.write({ type: 'summary_skipped', step: step(), error: 'no summary text' });
          return text || undefined;
        } catch (error) {
          stats.modelMs += clock.now() - started;
          trace?.write({ type: 'summary_skipped', step: step(), error: errorMessage(error) });
          return undefined;
        }
      },
    spent: () => ({
      usage: {
        input_tokens: stats.inputTokens,
        output_tokens: stats.outputTokens,
        cache_read_input_tokens: stats.cacheReadTokens,
        cache_creation_input_tokens: stats.cacheWriteTokens,
      },
      ms: stats.modelMs,
    }),
    addTo(total: RunStats) {
      total.modelMs += stats.modelMs;
      addUsage(total, stats);
    },
  };
}
