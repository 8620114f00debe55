import { AsyncLocalStorage, createHook } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { HarnessError } from '../../core/errors.js';

/**
 * Timers and immediates that trials set (in the agent, a tool or the check) and left pending.
 * Vitest ends its worker thread a few ms after the last eval file's last test: such a timer
 * never fires, so an error it would throw is lost and the gate passes. Each task waits for
 * them after its last trial (settleStrayTimers), so what they throw is one of the run's errors.
 * Only timers the trials set count: vitest's own (it keeps one for up to 100 ms) do not.
 */

/** How long a task waits, after its last trial, for the timers its trials left pending. */
export const STRAY_TIMER_WAIT_MS = 2_000;
const POLL_MS = 5;

type Timer = NodeJS.Timeout | NodeJS.Immediate;
interface SetByTrial {
  timer: Timer;
  trial: string;
}

/** The trial whose code is running, inherited by every timer and callback it starts. */
const trialScope = new AsyncLocalStorage<string>();
const tracked = new Set<SetByTrial>();
let hooked = false;
let pruneAt = 256;

/**
 * `test` (a vitest test function) with the timers and immediates it sets, and the ones those
 * set, tracked under `trial`. The hook starts with the first trial: an import costs nothing.
 */
export function inTrialScope<Context>(
  trial: string,
  test: (context: Context) => Promise<void>,
): (context: Context) => Promise<void> {
  return (context) => {
    if (!hooked) {
      // Only `init`: a destroy hook would make Node track every promise's end too.
      createHook({ init: track }).enable();
      hooked = true;
    }
    return trialScope.run(trial, () => test(context));
  };
}

function track(_id: number, type: string, _trigger: number, resource: object): void {
  if (type !== 'Timeout' && type !== 'Immediate') return;
  const trial = trialScope.getStore();
  if (trial === undefined) return;
  tracked.add({ timer: resource as Timer, trial });
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
  const deadline = performance.now() + waitMs;
  for (;;) {
    const pending = pendingTimers();
    if (pending.length === 0) return;
    if (performance.now() >= deadline) {
      for (const entry of pending) tracked.delete(entry);
      throw new StrayTimerError(
        pending.map((entry) => entry.trial),
        waitMs,
      );
    }
    await sleep(POLL_MS);
  }
}

/** Timers the trials set that were still pending once the task stopped waiting for them. */
export class StrayTimerError extends HarnessError {
  constructor(trials: readonly string[], waitMs: number) {
    const names = [...new Set(trials)].sort();
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
