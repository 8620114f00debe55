/**
 * Time goes through a clock so that runs are reproducible: live runs use real
 * time, evals and tests a virtual clock on which hangs and timeouts cost no wall time.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason if it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Virtual clocks only: keep time still while some real work runs (a tool raced against its
   * timeout), except while that work sleeps on `hold.clock`. See createVirtualClock.
   */
  hold?(): ClockHold;
}

export interface ClockHold {
  /** The clock to hand the held work: its sleeps let time move on. */
  readonly clock: Clock;
  /** The work is done, or no longer waited for: time may move again. Idempotent. */
  release(): void;
}

export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error(String(reason ?? 'aborted'));
}

export function createRealClock(): Clock {
  return {
    now: () => Date.now(),
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(abortReason(signal));
        const onAbort = () => {
          clearTimeout(timer);
          reject(abortReason(signal!));
        };
        const timer = setTimeout(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }, ms);
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
  };
}

interface Sleeper {
  wakeAt: number;
  seq: number;
  resolve: () => void;
}

export interface VirtualClock extends Clock {
  hold(): ClockHold;
  /** Move time forward, waking every sleeper whose time has come, in order. */
  advance(ms: number): void;
  /** Sleepers not yet woken. */
  pending(): number;
}

/**
 * A virtual clock. With `autoAdvance` (the default) time jumps to the next
 * sleeper's wake-up once the current macrotask's work has settled, so a
 * 10-second hang raced against a 3-second timeout resolves at once, at 3000 ms.
 *
 * Real I/O (a file read, a child process, a local server) takes several event-loop turns and
 * looks idle to the clock. Work that must not lose a race against a virtual timeout while it
 * does real I/O takes a `hold()`: time stands still while any hold is awake, and moves on
 * while the held work sleeps on `hold.clock` (a simulated hang) or once it is released.
 */
export function createVirtualClock(options: {
  start: Date | number;
  autoAdvance?: boolean;
}): VirtualClock {
  let current = typeof options.start === 'number' ? options.start : options.start.getTime();
  const autoAdvance = options.autoAdvance ?? true;
  const sleepers: Sleeper[] = [];
  let seq = 0;
  let scheduled = false;
  /** Holds whose work is running and not sleeping on this clock: time stands still. */
  let awake = 0;

  const wakeDue = () => {
    sleepers.sort((a, b) => a.wakeAt - b.wakeAt || a.seq - b.seq);
    while (sleepers.length > 0 && sleepers[0]!.wakeAt <= current) sleepers.shift()!.resolve();
  };

  const schedule = () => {
    if (!autoAdvance || scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      // Rescheduled when the last awake hold sleeps or is released.
      if (sleepers.length === 0 || awake > 0) return;
      sleepers.sort((a, b) => a.wakeAt - b.wakeAt || a.seq - b.seq);
      current = Math.max(current, sleepers[0]!.wakeAt);
      wakeDue();
      if (sleepers.length > 0) schedule();
    });
  };

  const hold = (): ClockHold => {
    let released = false;
    let sleeping = 0;
    awake += 1;
    const wake = () => {
      sleeping -= 1;
      if (!released && sleeping === 0) awake += 1;
    };
    return {
      clock: {
        now: () => current,
        sleep(ms, signal) {
          if (released) return clock.sleep(ms, signal);
          if (sleeping === 0) awake -= 1;
          sleeping += 1;
          // Woken (or aborted) work runs again: it holds time from its next microtask on.
          return clock.sleep(ms, signal).then(wake, (error: unknown) => {
            wake();
            throw error;
          });
        },
      },
      release() {
        if (released) return;
        released = true;
        if (sleeping === 0) awake -= 1;
        schedule();
      },
    };
  };

  const clock: VirtualClock = {
    now: () => current,
    pending: () => sleepers.length,
    hold,
    advance(ms) {
      current += ms;
      wakeDue();
    },
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(abortReason(signal));
        const sleeper: Sleeper = {
          wakeAt: current + Math.max(0, ms),
          seq: seq++,
          resolve: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        const onAbort = () => {
          const index = sleepers.indexOf(sleeper);
          if (index >= 0) sleepers.splice(index, 1);
          reject(abortReason(signal!));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        sleepers.push(sleeper);
        schedule();
      });
    },
  };
  return clock;
}
