import { createRealClock } from '../core/clock.js';
import { createReplayServer } from '../replay/replay-server.js';
import { type ConcurrencyLimit, createConcurrencyLimit } from '../runtime/concurrency-limit.js';

let server: ReturnType<typeof createReplayServer> | undefined;
let liveLimit: ConcurrencyLimit | undefined;

/** One msw server per worker, listening from first use; trials share it through their own sessions. */
export function sharedReplayServer(): ReturnType<typeof createReplayServer> {
  if (!server) {
    server = createReplayServer();
    server.listen();
  }
  return server;
}

/**
 * One limit for every trial of a live recording in this worker: at most `max`
 * model calls in flight, and a 429 pauses all of them instead of failing each.
 */
export function sharedLiveLimit(max: number): ConcurrencyLimit {
  liveLimit ??= createConcurrencyLimit({ max, clock: createRealClock() });
  return liveLimit;
}
