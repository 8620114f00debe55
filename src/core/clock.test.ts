import { describe, expect, it } from 'vitest';
import { createVirtualClock } from './clock.js';

describe('createVirtualClock', () => {
  it('jumps to the next wake-up without spending wall time', async () => {
    const clock = createVirtualClock({ start: 0 });
    // Raced against a real 5 s timer: a clock that really waited 10 s loses, whatever the load.
    let realTimer: NodeJS.Timeout | undefined;
    const winner = await Promise.race([
      clock.sleep(10_000).then(() => 'virtual'),
      new Promise((resolve) => {
        realTimer = setTimeout(() => resolve('real'), 5000);
      }),
    ]);
    clearTimeout(realTimer);
    expect(winner).toBe('virtual');
    expect(clock.now()).toBe(10_000);
  });

  it('wakes the earlier of two racing sleepers first and lets abort cancel the other', async () => {
    const clock = createVirtualClock({ start: 0 });
    const controller = new AbortController();
    const hang = clock.sleep(10_000, controller.signal).then(
      () => 'finished',
      () => 'cancelled',
    );
    await clock.sleep(3000);
    controller.abort(new Error('timeout'));
    expect(await hang).toBe('cancelled');
    expect(clock.now()).toBe(3000);
    expect(clock.pending()).toBe(0);
  });

  it('advances only by hand when autoAdvance is off', async () => {
    const clock = createVirtualClock({ start: 1000, autoAdvance: false });
    let woke = false;
    const sleeping = clock.sleep(500).then(() => {
      woke = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(woke).toBe(false);
    clock.advance(500);
    await sleeping;
    expect(woke).toBe(true);
    expect(clock.now()).toBe(1500);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const clock = createVirtualClock({ start: 0 });
    await expect(clock.sleep(10, AbortSignal.abort(new Error('stop')))).rejects.toThrow('stop');
  });
});
