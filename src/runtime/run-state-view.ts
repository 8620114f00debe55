import type { Clock } from '../core/clock.js';
import type { RunState, ToolCall } from './types.js';

/**
 * The run as one piece of user code sees it. Prototype links, not copies: getters such as
 * `step` stay live. (Object.create with property descriptors costs three times as much as
 * defining the one property after: it is made for every tool and hook call.)
 */

/** Everything live from `state`, plus the calls of the batch listed before this one. */
export function inBatch(state: RunState, earlierInBatch: readonly ToolCall[]): RunState {
  return linked(state, 'earlierInBatch', earlierInBatch);
}

/** `state` with `clock` as its clock: the one a tool or hook raced against a deadline waits on. */
export function withClock(state: RunState, clock: Clock): RunState {
  if (clock === state.clock) return state;
  return linked(state, 'clock', clock);
}

/**
 * `state` as one hook call sees it: the clock it was raced on, and its signal (made when the
 * hook first reads it: most hooks never do).
 */
export function forHook(state: RunState, clock: Clock, signal: () => AbortSignal): RunState {
  const view = linked(state, 'clock', clock);
  let made: AbortSignal | undefined;
  return Object.defineProperty(view, 'signal', {
    get: () => {
      made ??= signal();
      return made;
    },
    enumerable: true,
  });
}

function linked<K extends keyof RunState>(state: RunState, key: K, value: RunState[K]): RunState {
  const view: RunState = Object.create(state);
  return Object.defineProperty(view, key, { value, enumerable: true });
}
