import { callClock } from '../core/call-clock.js';
import { type CallSignal, callSignal } from '../core/call-signal.js';
import { type Raced, raceDeadline } from '../core/deadline.js';
import {
  CallEndedError,
  ConfigError,
  HookTimeoutError,
  hookTimeoutProblem,
} from '../core/errors.js';
import { isThenable } from '../core/thenable.js';
import { forHook } from './run-state-view.js';
import { timeoutMsProblem } from './timeout-ms.js';
import type { Hooks, RunState } from './types.js';

/** As long as Claude Code gives a hook by default. */
export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;

/** The deadline of each hook call; a ConfigError when `hooks.timeoutMs` is not one. */
export function hookTimeoutMs(hooks: Hooks | undefined): number {
  const timeoutMs = hooks?.timeoutMs;
  if (timeoutMs === undefined) return DEFAULT_HOOK_TIMEOUT_MS;
  const problem = timeoutMsProblem(timeoutMs);
  if (problem === undefined) return timeoutMs;
  throw new ConfigError(
    `hooks.${problem}; leave it out for the default (${DEFAULT_HOOK_TIMEOUT_MS})`,
  );
}

/** The deadline of every hook call of a pipeline, and the run's signal that ends them all. */
export interface HookDeadline {
  timeoutMs: number;
  /** The run's: aborted when the run is cancelled. */
  signal?: AbortSignal | undefined;
}

/** How one hook call ended. */
export type HookCall<T> =
  | { kind: 'answered'; answer: T }
  | { kind: 'threw'; error: unknown }
  | { kind: 'timeout'; problem: string };

/**
 * Call a hook against its deadline, on the run's clock as a tool's timeout is (see
 * raceDeadline): real I/O in a hook cannot time out early in an eval, a sleep on `run.clock`
 * moves virtual time, and a hook that never settles ends after the deadline in real time.
 * The hook's own waits on `run.clock` end with its call (callClock), so it cannot move the
 * run's virtual time later; at the deadline `run.signal` aborts too (as it does when the run is
 * cancelled) so that the hook can stop its own work.
 */
export function callHook<T>(
  label: string,
  deadline: HookDeadline,
  run: RunState,
  hook: (run: RunState) => T | Promise<T>,
): HookCall<T> | Promise<HookCall<T>> {
  const { timeoutMs, signal: runSignal } = deadline;
  let signal: CallSignal | undefined;
  const raced = raceDeadline(
    run.clock,
    timeoutMs,
    () => new HookTimeoutError(label, timeoutMs),
    (raceClock, expired): HookCall<T> | Promise<HookCall<T>> => {
      signal = callSignal(expired, runSignal);
      const clock = callClock(raceClock, run.clock.hold !== undefined);
      // Its waits end with its call: one left running cannot move the run's time later.
      const ended = (call: HookCall<T>): HookCall<T> => {
        clock.end((after) => new CallEndedError(label, 'run.clock', after));
        return call;
      };
      try {
        const answer = hook(forHook(run, clock.clock, signal.signal));
        // A hostile answer's `then` may throw: reading it is inside the try.
        if (!isThenable(answer)) return ended({ kind: 'answered', answer });
        return Promise.resolve(answer).then(
          (settled) => ended({ kind: 'answered', answer: settled }),
          (error: unknown) => ended({ kind: 'threw', error }),
        );
      } catch (error) {
        return ended({ kind: 'threw', error });
      }
    },
  );
  const settled = (call: Raced<HookCall<T>>): HookCall<T> => {
    signal?.release();
    if (call.kind === 'settled') return call.outcome;
    return { kind: 'timeout', problem: hookTimeoutProblem(label, timeoutMs) };
  };
  // A hook that answered at once needs no timer and no race.
  return raced instanceof Promise ? raced.then(settled) : settled(raced);
}
