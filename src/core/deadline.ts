import type { Clock } from './clock.js';

export type Raced<T> = { kind: 'settled'; outcome: T } | { kind: 'timeout'; late: Promise<T> };

/**
 * Race `work` against a deadline `ms` away on `clock`: how tool timeouts and hook deadlines
 * both end user code. `work` gets the clock to wait on and a signal that aborts with `reason()`
 * at the deadline; it must not reject (map a failure to an outcome).
 *
 * On a virtual clock the work holds time still while it runs, so real I/O cannot lose the race
 * to a deadline that is not due; time moves while it sleeps on the clock it is handed. Work
 * still running after `ms` of real time (a hung connection, a promise that never settles)
 * stops holding: the clock moves to the deadline, and the work times out.
 *
 * @example
 * const raced = await raceDeadline(clock, 3000, () => new ToolTimeoutError(name, 3000), run);
 */
export async function raceDeadline<T>(
  clock: Clock,
  ms: number,
  reason: () => Error,
  work: (clock: Clock, signal: AbortSignal) => Promise<T>,
): Promise<Raced<T>> {
  const controller = new AbortController();
  const hold = clock.hold?.();
  const running = work(hold?.clock ?? clock, controller.signal);
  const timer = new AbortController();
  // Undefined at the deadline (or when cancelled, once the race is over).
  const timeout = clock.sleep(ms, timer.signal).then(
    () => undefined,
    () => undefined,
  );
  const realDeadline = hold && setTimeout(() => hold.release(), ms);
  const first = await Promise.race([running.then((outcome) => ({ outcome })), timeout]);
  clearTimeout(realDeadline);
  hold?.release();
  if (first === undefined) {
    // Cancel the work, not abandon it: its signal fires and its own waits end.
    controller.abort(reason());
    return { kind: 'timeout', late: running };
  }
  timer.abort(TIMER_NOT_NEEDED);
  return { kind: 'settled', outcome: first.outcome };
}

/** A shared abort reason: `abort()` without one builds a DOMException, stack and all, per call. */
const TIMER_NOT_NEEDED = new Error('the work settled before its deadline');
