import type { Clock } from './clock.js';

/** The clock one call of user code waits on, and how to end it with the call. */
export interface CallClock {
  readonly clock: Clock;
  /**
   * The call has ended (answered, failed or abandoned): waits still pending reject with
   * `reason()`, later ones at once. Idempotent; `reason` is asked for only when a wait needs it.
   */
  end(reason: () => Error): void;
}

/**
 * `clock` as one call of a tool or a hook gets it. A wait the call left running when it ended
 * (`void clock.sleep(5000).then(...)`) rejects instead of waking later, so code left behind
 * cannot move the run's virtual time after the run moved on, and leaves no sleeper or timer.
 * The same rule as at a deadline (raceDeadline), for calls that settled in time.
 */
export function callClock(clock: Clock): CallClock {
  let ended: (() => Error) | undefined;
  /** Made by the first wait: most calls never wait. */
  let controller: AbortController | undefined;
  return {
    clock: {
      now: () => clock.now(),
      sleep(ms, signal) {
        if (ended !== undefined) return Promise.reject(ended());
        controller ??= new AbortController();
        const own = controller.signal;
        return clock.sleep(ms, signal ? AbortSignal.any([signal, own]) : own);
      },
    },
    end(reason) {
      if (ended !== undefined) return;
      ended = reason;
      controller?.abort(reason());
    },
  };
}
