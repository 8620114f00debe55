import { describe, expect, it } from 'vitest';
import { createVirtualClock } from '../core/clock.js';
import { ConfigError } from '../core/errors.js';
import { createConcurrencyLimit } from './concurrency-limit.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('createConcurrencyLimit', () => {
  it('keeps at most max tasks running and starts the next when one ends', async () => {
    const limit = createConcurrencyLimit({ max: 2, clock: createVirtualClock({ start: 0 }) });
    const gates = [deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = gates.map((gate, index) =>
      limit.run(async () => {
        started.push(index);
        await gate.promise;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1]);
    expect(limit.waiting).toBe(1);
    gates[0]!.resolve();
    await runs[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    gates[1]!.resolve();
    gates[2]!.resolve();
    await Promise.all(runs);
    expect(limit.active).toBe(0);
  });

  it('holds new tasks while paused, on the clock', async () => {
    const clock = createVirtualClock({ start: 0 });
    const limit = createConcurrencyLimit({ max: 4, clock });
    limit.pause(3000);
    limit.pause(1000);
    let at = -1;
    await limit.run(async () => {
      at = clock.now();
    });
    expect(at).toBe(3000);
  });

  it('refuses a limit below 1', () => {
    expect(() =>
      createConcurrencyLimit({ max: 0, clock: createVirtualClock({ start: 0 }) }),
    ).toThrow(ConfigError);
  });
});
