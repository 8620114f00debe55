import type { Clock } from './clock.js';

/** The clock one call of user code waits on, and how to end it with the call. */
export interface CallClock {
  readonly clock: Clock;
  /**
   * The call has ended (answered, failed or abandoned): on a virtual clock, waits still pending
   * reject with `reason(false)`, later ones at once with `reason(true)`. Idempotent; `reason`
   * is asked for only when a wait needs it. On a real clock it does nothing.
   */
  end(reason: (startedAfter: boolean) => Error): void;
}

/**
 * `clock` as one call of a tool or a hook gets it. On a virtual clock (`virtual`: the run's
 * clock has `hold`), a wait the call left running when it ended (`void clock.sleep(5000).then(...)`)
 * rejects instead of waking later, so code left behind cannot move the run's virtual time after
 * the run moved on, and leaves no sleeper. The same rule as at a deadline (raceDeadline), for
 * calls that settled in time. A real clock is handed on as it is: real time moves anyway, and a
 * live run's background work (a cache's expiry) must neither fail nor crash the process.
 */
export function callClock(clock: Clock, virtual: boolean): CallClock {
  if (!virtual) return { clock, end: () => {} };
  let ended: ((startedAfter: boolean) => Error) | undefined;
  /** Made by the first wait: most calls never wait. */
  let controller: AbortController | undefined;
  return {
    clock: {
      now: () => clock.now(),
      sleep(ms, signal) {
        if (ended !== undefined) return Promise.reject(ended(true));
        controller ??= new AbortController();
        const own = controller.signal;
        return clock.sleep(ms, signal ? AbortSignal.any([signal, own]) : own);
      },
    },
    end(reason) {
      if (ended !== undefined) return;
      ended = reason;
      controller?.abort(reason(false));
    },
  };
}
