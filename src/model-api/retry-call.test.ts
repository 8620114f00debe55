import { describe, expect, it } from 'vitest';
import { createVirtualClock } from '../core/clock.js';
import { ModelApiError } from '../core/errors.js';
import type { ModelEvent } from './model-client.js';
import { callWithRetries } from './retry-call.js';

/** The loop both the model layer and the Chat Completions adapter retry through. */
describe('callWithRetries', () => {
  const failing = () => {
    let calls = 0;
    return {
      calls: () => calls,
      call: async (): Promise<string> => {
        calls += 1;
        throw new ModelApiError('Messages API error 500: planted', { status: 500 });
      },
    };
  };

  it('stops at the first event stopAfterEvent answers with an error, and throws that error', async () => {
    const clock = createVirtualClock({ start: 0 });
    const { call, calls } = failing();
    const events: ModelEvent[] = [];
    const stop = new Error('the trace sink failed at the model_retry event (step 1): disk full');
    const retried = callWithRetries(call, {
      clock,
      model: 'main-model',
      random: () => 0,
      onEvent: (event) => events.push(event),
      stopAfterEvent: async () => (events.length > 0 ? stop : undefined),
    });
    await expect(retried).rejects.toBe(stop);
    // One attempt, one event, no backoff waited for.
    expect(calls()).toBe(1);
    expect(events.map((event) => event.type)).toEqual(['model_retry']);
    expect(clock.now()).toBe(0);
  });

  it('goes on retrying while stopAfterEvent answers undefined', async () => {
    const clock = createVirtualClock({ start: 0 });
    const { call, calls } = failing();
    let asked = 0;
    const retried = callWithRetries(call, {
      clock,
      model: 'main-model',
      maxRetries: 2,
      random: () => 0,
      stopAfterEvent: async () => {
        asked += 1;
        return undefined;
      },
    });
    await expect(retried).rejects.toThrow('Messages API error 500: planted');
    expect(calls()).toBe(3);
    expect(asked).toBe(2);
  });
});
