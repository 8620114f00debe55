import type { Clock } from '../core/clock.js';
import type { ConcurrencyLimit } from './concurrency-limit.js';
import type { Message, ModelCallOptions, ModelClient, ModelEvent } from './model-client.js';
import { backoffMs, classifyFailure } from './retry-policy.js';

export interface RetryingModelOptions {
  /** The model to wrap; build its SDK client with `maxRetries: 0` so retries do not double. */
  model: ModelClient;
  /** Every wait goes through it (tests: a virtual clock, no real sleeping). */
  clock: Clock;
  /** Retries per model before giving up (or falling back). Default 4. */
  maxRetries?: number;
  /** Backoff when the server names no wait: 500 ms doubling to at most 8000 ms, with jitter. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** A longer `retry-after` than this is not waited out as such; backoff applies. Default 60 s. */
  maxRetryAfterMs?: number;
  /**
   * Tried in order when the model is overloaded (529), keeps failing, or refuses
   * (`stop_reason: 'refusal'`). Each call starts again with the requested model.
   */
  fallbackModels?: readonly string[];
  /** Shared by every run that should share a rate limit. */
  limit?: ConcurrencyLimit;
  /** Jitter source, 0..1. Default Math.random. */
  random?: () => number;
}

/**
 * The model layer for long live runs: retries with backoff that honours `retry-after-ms` /
 * `retry-after`, a fallback model on overload or refusal, and a shared concurrency limit.
 * Each retry and fallback is reported through `onEvent` (the loop writes it to the trace).
 *
 * @example
 * const client = createLiveClient().withOptions({ maxRetries: 0 });
 * const model = createRetryingModel({
 *   model: createAnthropicModel({ client }), clock, fallbackModels: ['claude-sonnet-5'],
 * });
 */
export function createRetryingModel(options: RetryingModelOptions): ModelClient {
  const { clock } = options;
  const maxRetries = options.maxRetries ?? 4;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const backoff = {
    initialDelayMs: options.initialDelayMs ?? 500,
    maxDelayMs: options.maxDelayMs ?? 8000,
    random: options.random ?? Math.random,
  };
  const send = (request: Parameters<ModelClient['createMessage']>[0], signal?: AbortSignal) => {
    const call = () => options.model.createMessage(request, signal ? { signal } : undefined);
    return options.limit ? options.limit.run(call, signal) : call();
  };

  return {
    async createMessage(request, callOptions?: ModelCallOptions): Promise<Message> {
      const report = (event: ModelEvent) => callOptions?.onEvent?.(event);
      const signal = callOptions?.signal;
      const chain = [
        request.model,
        ...(options.fallbackModels ?? []).filter((model) => model !== request.model),
      ];
      for (let index = 0; index < chain.length; index += 1) {
        const model = chain[index]!;
        const next = chain[index + 1];
        const body = index === 0 ? request : { ...request, model };
        for (let attempt = 1; ; attempt += 1) {
          let failure: ReturnType<typeof classifyFailure>;
          try {
            const message = await send(body, signal);
            if (message.stop_reason === 'refusal' && next !== undefined) {
              report({ type: 'model_fallback', from: model, to: next, reason: 'refusal' });
              break;
            }
            return message;
          } catch (error) {
            failure = classifyFailure(error, clock.now());
            if (!failure.retryable || signal?.aborted) throw error;
            if (failure.overloaded && next !== undefined) {
              report({ type: 'model_fallback', from: model, to: next, reason: 'overloaded' });
              break;
            }
            if (attempt > maxRetries) {
              if (next === undefined) throw error;
              report({ type: 'model_fallback', from: model, to: next, reason: 'unavailable' });
              break;
            }
          }
          const named = failure.retryAfterMs;
          const wait =
            named !== undefined && named <= maxRetryAfterMs ? named : backoffMs(attempt, backoff);
          // A rate limit is everyone's: hold the shared limit, not just this call.
          if (failure.status === 429) options.limit?.pause(wait);
          report({
            type: 'model_retry',
            model,
            attempt,
            ...(failure.status !== undefined && { status: failure.status }),
            error: failure.message,
            wait_ms: wait,
          });
          await clock.sleep(wait, signal);
        }
      }
      // Unreachable: the last model of the chain returns or throws.
      throw new Error('retrying model: no model left to try');
    },
  };
}
