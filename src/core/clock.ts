/**
 * Time goes through a clock so that runs are reproducible: live runs use real
 * time, evals and tests a virtual clock on which hangs and timeouts cost no wall time.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason if it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
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
  /** Move time forward, waking every sleeper whose time has come, in order. */
  advance(ms: number): void;
  /** Sleepers not yet woken. */
  pending(): number;
}

/**
 * A virtual clock. With `autoAdvance` (the default) time jumps to the next
 * sleeper's wake-up once the current macrotask's work has settled, so a
 * 10-second hang raced against a 3-second timeout resolves at once, at 3000 ms.
 * It suits in-process work that waits only on this clock; do not mix it with
 * real I/O that must finish before a virtual timeout fires.
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

  const wakeDue = () => {
    sleepers.sort((a, b) => a.wakeAt - b.wakeAt || a.seq - b.seq);
    while (sleepers.length > 0 && sleepers[0]!.wakeAt <= current) sleepers.shift()!.resolve();
  };

  const schedule = () => {
    if (!autoAdvance || scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      if (sleepers.length === 0) return;
      sleepers.sort((a, b) => a.wakeAt - b.wakeAt || a.seq - b.seq);
      current = Math.max(current, sleepers[0]!.wakeAt);
      wakeDue();
      if (sleepers.length > 0) schedule();
    });
  };

  return {
    now: () => current,
    pending: () => sleepers.length,
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
}
