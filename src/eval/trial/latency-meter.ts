import type { VirtualClock } from '../../core/clock.js';

/**
 * Times a trial's model calls on the run's virtual clock, the same way for every driver.
 * Replay: the clock advances by the recorded latency while a call is served, so the meter
 * only reads it. Recording (`measured` given): each call's wall time is measured, pushed to
 * `measured`, and the clock moves on by it, so tool timeouts and traces see the real wait.
 */
export interface LatencyMeter {
  /** Run one model call (an HTTP request, or a whole `createMessage`) under the meter. */
  time<T>(call: () => Promise<T>): Promise<T>;
  /** Calls timed so far. */
  calls(): number;
  /** Their time on the run's clock, in ms. */
  modelMs(): number;
}

export function createLatencyMeter(clock: VirtualClock, measured?: number[]): LatencyMeter {
  let calls = 0;
  let modelMs = 0;
  return {
    async time(call) {
      calls += 1;
      const before = clock.now();
      const started = performance.now();
      try {
        return await call();
      } finally {
        if (measured) {
          const ms = Math.round(performance.now() - started);
          measured.push(ms);
          clock.advance(ms);
        }
        modelMs += clock.now() - before;
      }
    },
    calls: () => calls,
    modelMs: () => modelMs,
  };
}
