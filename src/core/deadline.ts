import type { Clock, ClockHold } from './clock.js';

export type Raced<T> = { kind: 'settled'; outcome: T } | { kind: 'timeout'; late: Promise<T> };

/**
 * Race `work` against a deadline `ms` away on `clock`: how tool timeouts and hook deadlines
 * both end user code. `work` gets the clock to wait on and the signal that aborts with
 * `reason()` at the deadline (asked for when needed: creating one costs more than a hook that
 * answers at once). It must not throw or reject (map a failure to an outcome), and answers
 * with a promise when it may take time. On a virtual clock its sleeps on the clock it gets end
 * at the deadline (they reject with `reason()`, and later ones at once), signal or not:
 * abandoned work cannot move the run's virtual time after the run moved on. A real clock is
 * handed on as it is; the signal still aborts at the deadline.
 *
 * On a virtual clock the work holds time still while it runs, so real I/O cannot lose the race
 * to a deadline that is not due; time moves while it sleeps on the clock it is handed. Work
 * still running after `ms` of real time (a hung connection, a promise that never settles)
 * stops holding: the clock moves to the deadline, and the work times out.
 *
 * @example
 * const raced = await raceDeadline(clock, 3000, () => new ToolTimeoutError(name, 3000), run);
 */
export function raceDeadline<T>(
  clock: Clock,
  ms: number,
  reason: () => Error,
  work: (clock: Clock, signal: () => AbortSignal) => T | Promise<T>,
): Raced<T> | Promise<Raced<T>> {
  const cancel = new Cancellation(reason);
  const hold = clock.hold?.();
  let running: T | Promise<T>;
  try {
    // A real clock is handed on as it is: real time moves anyway, and a live tool's background
    // wait (a cache's expiry) must neither fail at the deadline nor crash the process.
    running = work(hold ? new EndingAt(hold.clock, cancel.signal) : clock, cancel.signal);
  } catch (error) {
    // Against the contract, but a hold never released would stop the virtual clock for good.
    hold?.release();
    throw error;
  }
  // Work that answered at once had no time to run out of: no timers, no race.
  if (!(running instanceof Promise)) {
    hold?.release();
    return { kind: 'settled', outcome: running };
  }
  return race(clock, ms, hold, running, cancel);
}

/** The work's signal, made when first asked for: most work never asks. */
class Cancellation {
  #controller: AbortController | undefined;
  #expired: Error | undefined;
  readonly #reason: () => Error;

  constructor(reason: () => Error) {
    this.#reason = reason;
  }

  /** Aborted already once the deadline passed. */
  readonly signal = (): AbortSignal => {
    if (this.#expired !== undefined) return AbortSignal.abort(this.#expired);
    this.#controller ??= new AbortController();
    return this.#controller.signal;
  };

  /** The deadline passed: abort the signal with the reason. */
  fire(): void {
    this.#expired = this.#reason();
    this.#controller?.abort(this.#expired);
  }
}

async function race<T>(
  clock: Clock,
  ms: number,
  hold: ClockHold | undefined,
  running: Promise<T>,
  cancel: Cancellation,
): Promise<Raced<T>> {
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
    // Cancel the work, not abandon it: its signal fires, and its waits on the clock end.
    cancel.fire();
    return { kind: 'timeout', late: running };
  }
  timer.abort(TIMER_NOT_NEEDED);
  return { kind: 'settled', outcome: first.outcome };
}

/** `clock`, with every sleep also ended by `deadline`. */
class EndingAt implements Clock {
  readonly #clock: Clock;
  readonly #deadline: () => AbortSignal;

  constructor(clock: Clock, deadline: () => AbortSignal) {
    this.#clock = clock;
    this.#deadline = deadline;
  }

  now(): number {
    return this.#clock.now();
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    const deadline = this.#deadline();
    return this.#clock.sleep(ms, signal ? AbortSignal.any([signal, deadline]) : deadline);
  }
}

/** A shared abort reason: `abort()` without one builds a DOMException, stack and all, per call. */
const TIMER_NOT_NEEDED = new Error('the work settled before its deadline');
