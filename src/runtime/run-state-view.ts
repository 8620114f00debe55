import type { Clock } from '../core/clock.js';
import type { RunState, ToolCall } from './types.js';

/**
 * The run as one piece of user code sees it. Prototype links, not copies: getters such as
 * `step` stay live.
 */

/** Everything live from `state`, plus the calls of the batch listed before this one. */
export function inBatch(state: RunState, earlierInBatch: readonly ToolCall[]): RunState {
  return Object.create(state, { earlierInBatch: { value: earlierInBatch, enumerable: true } });
}

/** `state` with `clock` as its clock: the one a tool or hook raced against a deadline waits on. */
export function withClock(state: RunState, clock: Clock): RunState {
  if (clock === state.clock) return state;
  return Object.create(state, { clock: { value: clock, enumerable: true } });
}
