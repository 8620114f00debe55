import { setTimeout as sleep } from 'node:timers/promises';
import { HarnessError } from '../core/errors.js';

/**
 * Timers and immediates that trials set (in the agent, a tool or the check) and left pending.
 * Vitest ends its worker thread a few ms after the last eval file's last test: such a timer
 * never fires, so an error it would throw is lost and the gate passes. Each task waits for
 * them after its last trial (settleStrayTimers), so what they throw is one of the run's errors.
 * Only timers the trials set count: vitest's own (it keeps one for up to 100 ms) do not.
 *
 * How: from the first trial on, the global setTimeout, setInterval and setImmediate note each
 * timer set while a trial runs, or by the callback of a timer so noted (vitest holds its own
 * copies, taken when it loaded). No async hook: one would slow every promise of every trial.
 * With trials running at once (describe.concurrent), a timer is put down to every trial that
 * was running when it was set. `timers/promises` and timers set at an eval file's import are
 * not seen.
 */

/** How long a task waits, after its last trial, for the timers its trials left pending. */
export const STRAY_TIMER_WAIT_MS = 2_000;
const POLL_MS = 5;

type Timer = NodeJS.Timeout | NodeJS.Immediate;
interface SetByTrial {
  timer: Timer;
  trials: readonly string[];
}

/** Trials running now, each with how many times (a retried or repeated name). */
const running = new Map<string, number>();
/** The trials a noted timer's callback runs for, while it runs. */
let inCallback: readonly string[] | undefined;
const tracked = new Set<SetByTrial>();
/** The globals as they were, while they are wrapped; undefined while they are not. */
let unpatch: (() => void) | undefined;
let pruneAt = 256;

/**
 * `test` (a vitest test function) with the timers and immediates it sets, and the ones those
 * set, tracked under `trial`. The globals are wrapped at the first trial: an import costs nothing.
 */
export function inTrialScope<Context>(
  trial: string,
  test: (context: Context) => Promise<void>,
): (context: Context) => Promise<void> {
  return async (context) => {
    if (unpatch === undefined) unpatch = patchTimers();
    running.set(trial, (running.get(trial) ?? 0) + 1);
    try {
      await test(context);
    } finally {
      const left = (running.get(trial) ?? 1) - 1;
      if (left === 0) running.delete(trial);
      else running.set(trial, left);
    }
  };
}

/** Who a timer set now belongs to: the callback's trials, else the trials running, else none. */
function owners(): readonly string[] | undefined {
  if (inCallback !== undefined) return inCallback;
  return running.size === 0 ? undefined : [...running.keys()];
}

/** The callback, run as `trials`' code: the timers it sets are theirs too. */
function ownedBy<Args extends unknown[]>(
  trials: readonly string[],
  callback: (...args: Args) => void,
): (...args: Args) => void {
  return (...args) => {
    const outer = inCallback;
    inCallback = trials;
    try {
      callback(...args);
    } finally {
      inCallback = outer;
    }
  };
}

/** Wraps the three globals; resolves to what puts back those still wrapped. */
function patchTimers(): () => void {
  type Setter = (callback: (...args: unknown[]) => void, ...rest: unknown[]) => Timer;
  const wrap = (name: 'setTimeout' | 'setInterval' | 'setImmediate') => {
    const original = globalThis[name] as unknown as Setter;
    const noting: Setter = (callback, ...rest) => {
      const trials = owners();
      if (trials === undefined || typeof callback !== 'function') {
        return original(callback, ...rest);
      }
      const timer = original(ownedBy(trials, callback), ...rest);
      track(timer, trials);
      return timer;
    };
    // Their own properties come along: util.promisify(setTimeout) keeps its promisify.custom.
    for (const key of Reflect.ownKeys(original)) {
      if (key === 'length' || key === 'name' || key === 'prototype') continue;
      Object.defineProperty(noting, key, Object.getOwnPropertyDescriptor(original, key)!);
    }
    Object.defineProperty(noting, 'name', { value: name });
    const globals = globalThis as Record<string, unknown>;
    globals[name] = noting;
    // Not over what came after (vi.useFakeTimers() on top of it puts ours back when it ends).
    return () => {
      if (globals[name] === noting) globals[name] = original;
    };
  };
  const restores = [wrap('setTimeout'), wrap('setInterval'), wrap('setImmediate')];
  return () => {
    for (const restore of restores) restore();
  };
}

function track(timer: Timer, trials: readonly string[]): void {
  tracked.add({ timer, trials });
  if (tracked.size >= pruneAt) {
    pendingTimers();
    pruneAt = Math.max(256, tracked.size * 2);
  }
}

/**
 * Pending: neither fired (a timeout that does not repeat, an immediate) nor cleared (Node marks
 * both `_destroyed`), and ref'd (an unref'd timer would not keep a Node process alive either).
 */
export function isPending(timer: Timer): boolean {
  return (timer as { _destroyed?: boolean })._destroyed !== true && timer.hasRef();
}

/** The tracked timers still pending; the others are forgotten. */
function pendingTimers(): SetByTrial[] {
  const pending: SetByTrial[] = [];
  for (const entry of tracked) {
    if (isPending(entry.timer)) pending.push(entry);
    else tracked.delete(entry);
  }
  return pending;
}

/**
 * Waits until no timer a trial set is pending (at once, when none is), at most `waitMs`; an
 * error one throws meanwhile is an unhandled error of the run, as any other. Throws a
 * StrayTimerError naming the trials whose timers are still pending then, and forgets those.
 */
export async function settleStrayTimers(waitMs = STRAY_TIMER_WAIT_MS): Promise<void> {
  try {
    await settle(waitMs);
  } finally {
    // Between tasks the globals are vitest's again: the next task's first trial wraps them.
    if (running.size === 0) {
      unpatch?.();
      unpatch = undefined;
    }
  }
}

async function settle(waitMs: number): Promise<void> {
  const deadline = performance.now() + waitMs;
  for (;;) {
    const pending = pendingTimers();
    if (pending.length === 0) return;
    if (performance.now() >= deadline) {
      for (const entry of pending) tracked.delete(entry);
      throw new StrayTimerError(
        pending.map((entry) => entry.trials),
        waitMs,
      );
    }
    await sleep(POLL_MS);
  }
}

/** Timers the trials set that were still pending once the task stopped waiting for them. */
export class StrayTimerError extends HarnessError {
  /** `trials`: per timer, the trial (or the trials running at once) that set it. */
  constructor(trials: ReadonlyArray<string | readonly string[]>, waitMs: number) {
    const names = [...new Set(trials.flat())].sort();
    const shown =
      names.length > 4 ? [...names.slice(0, 3), `${names.length - 3} more trials`] : names;
    const listed =
      shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
    const count = trials.length === 1 ? '1 timer' : `${trials.length} timers`;
    super(
      'stray_timers',
      `${count} set by ${listed} ${trials.length === 1 ? 'was' : 'were'} still pending ${waitMs / 1000} s after its last trial; the run does not wait longer, and a timer still pending when it ends never runs, so an error it would throw is lost: clear each (clearTimeout, clearInterval) or unref() it in the agent, tool or check that sets it`,
    );
  }
}
