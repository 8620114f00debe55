import { createVirtualClock } from '../../core/clock.js';
import type { RunState } from '../types.js';

/** A fresh run state for tests: step 1, unattended, a virtual clock at 0, empty history and store. */
export function testRunState(overrides: Partial<RunState> = {}): RunState {
  return {
    runId: 'test-run',
    step: 1,
    mode: 'unattended',
    clock: createVirtualClock({ start: 0 }),
    history: [],
    store: new Map(),
    ...overrides,
  };
}
