import type { Clock } from '../core/clock.js';
import type { ConcurrencyLimit } from './concurrency-limit.js';
import type { Message, ModelCallOptions, ModelClient, ModelEvent } from './model-client.js';
import { callWithRetries, type RetrySettings } from './retry-call.js';
import { classifyFailure } from './retry-policy.js';

export interface RetryingModelOptions extends RetrySettings {
  /** The model to wrap; build its SDK client with `maxRetries: 0` so retries do not double. */
  model: ModelClient;
  /** Every wait goes through it (tests: a virtual clock, no real sleeping). */
  clock: Clock;
  /**
   * Tried in order when the model is overloaded (529), keeps failing, or refuses
   * (`stop_reason: 'refusal'`). Each call starts again with the requested model.
   */
  fallbackModels?: readonly string[];
  /** Shared by every run that should share a rate limit. */
  limit?: ConcurrencyLimit;
}

/**
 * The model layer for long live runs: retries with backoff that honours `retry-after-ms` /
 * `retry-after`, a fallback model on overload or refusal, and a shared concurrency limit.
 * Each retry and fallback is reported through `onEvent` (the loop writes it to the trace), and
 * the call ends at the first one after which `stopAfterEvent` answers with an error.
 *
 * @example
 * const client = createLiveClient().withOptions({ maxRetries: 0 });
 * const model = createRetryingModel({
 *   model: createAnthropicModel({ client }), clock, fallbackModels: ['claude-sonnet-5'],
 * });
 */
export function createRetryingModel(options: RetryingModelOptions): ModelClient {
  const { model: _client, fallbackModels: _fallbacks, ...settings } = options;
  const send = (request: Parameters<ModelClient['createMessage']>[0], signal?: AbortSignal) => {
    const call = () => options.model.createMessage(request, signal ? { signal } : undefined);
    return options.limit ? options.limit.run(call, signal) : call();
  };

  return {
    async createMessage(request, callOptions?: ModelCallOptions): Promise<Message> {
      /** Why the caller ended the call after an event: thrown as it is, never a fallback's cue. */
      let stop: Error | undefined;
      const stopAfterEvent = async () => {
        stop = await callOptions?.stopAfterEvent?.();
        return stop;
      };
      /** Reports a fallback; the call ends there when the caller says so. */
      const fallBack = async (event: ModelEvent) => {
        callOptions?.onEvent?.(event);
        const stopped = await stopAfterEvent();
        if (stopped !== undefined) throw stopped;
      };
      const signal = callOptions?.signal;
      const chain = [
        request.model,
        ...(options.fallbackModels ?? []).filter((model) => model !== request.model),
      ];
      for (let index = 0; index < chain.length; index += 1) {
        const model = chain[index]!;
        const next = chain[index + 1];
        const body = index === 0 ? request : { ...request, model };
        let message: Message;
        try {
          message = await callWithRetries(() => send(body, signal), {
            ...settings,
            model,
            signal,
            // An overloaded model is left for the fallback at once, not retried.
            giveUp: (failure) => failure.overloaded && next !== undefined,
            ...(callOptions?.onEvent && { onEvent: callOptions.onEvent }),
            stopAfterEvent,
          });
        } catch (error) {
          const failure = classifyFailure(error, options.clock.now());
          if (stop !== undefined || next === undefined || !failure.retryable || signal?.aborted) {
            throw error;
          }
          const reason = failure.overloaded ? 'overloaded' : 'unavailable';
          await fallBack({ type: 'model_fallback', from: model, to: next, reason });
          continue;
        }
        if (message.stop_reason === 'refusal' && next !== undefined) {
          await fallBack({ type: 'model_fallback', from: model, to: next, reason: 'refusal' });
          continue;
        }
        return message;
      }
      // Unreachable: the last model of the chain returns or throws.
      throw new Error('retrying model: no model left to try');
    },
  };
}
