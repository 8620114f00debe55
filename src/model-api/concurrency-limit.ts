import type { Clock } from '../core/clock.js';
import { ConfigError } from '../core/errors.js';

/**
 * At most `max` model calls in flight, shared by every trial of a recording or an eval: build
 * one and hand it to every model. A 429's retry-after pauses everyone, so a rate-limit storm
 * slows the whole run down instead of failing its trials one by one.
 */
export interface ConcurrencyLimit {
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Start no new call before `ms` from now (extends, never shortens, a pause). */
  pause(ms: number): void;
  readonly active: number;
  readonly waiting: number;
}

/**
 * @example
 * const limit = createConcurrencyLimit({ max: 4, clock });
 * const model = createRetryingModel({ model: live, clock, limit });
 */
export function createConcurrencyLimit(options: { max: number; clock: Clock }): ConcurrencyLimit {
  const { max, clock } = options;
  if (!Number.isInteger(max) || max < 1) {
    throw new ConfigError(`a concurrency limit takes a whole number from 1, got ${max}`);
  }
  let active = 0;
  let pausedUntil = 0;
  const queue: Array<() => void> = [];

  const release = () => {
    active -= 1;
    queue.shift()?.();
  };
  const acquire = async (signal: AbortSignal | undefined) => {
    while (true) {
      const wait = pausedUntil - clock.now();
      if (wait > 0) {
        await clock.sleep(wait, signal);
        continue;
      }
      if (active < max) {
        active += 1;
        return;
      }
      await new Promise<void>((resolve) => queue.push(resolve));
    }
  };

  return {
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
    pause(ms) {
      pausedUntil = Math.max(pausedUntil, clock.now() + ms);
    },
    async run(task, signal) {
      await acquire(signal);
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
