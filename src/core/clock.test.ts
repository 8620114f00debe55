import { mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createVirtualClock } from './clock.js';
import { raceDeadline } from './deadline.js';

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

  describe('hold: real work that time must wait for', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'clock-hold-')), 'note.txt');
    writeFileSync(file, 'a note');

    // A tool's timeout sleeps on the clock while the tool reads a file: the read takes a few
    // event-loop turns, and the clock used to jump to the timeout after one of them.
    it('does not move time while held work is doing real I/O', async () => {
      const clock = createVirtualClock({ start: 0 });
      const hold = clock.hold();
      let timedOut = false;
      const timeout = clock.sleep(5000).then(() => {
        timedOut = true;
      });
      for (let read = 0; read < 20; read += 1) await readFile(file, 'utf8');
      expect(timedOut).toBe(false);
      expect(clock.now()).toBe(0);
      hold.release();
      await timeout;
      expect(clock.now()).toBe(5000);
    });

    it('moves time while held work sleeps on the clock it was given', async () => {
      const clock = createVirtualClock({ start: 0 });
      const hold = clock.hold();
      const order: string[] = [];
      const timeout = clock.sleep(3000).then(() => order.push('timeout'));
      // A simulated 10 s hang raced against a 3 s timeout still resolves at once, at 3000.
      const hang = hold.clock.sleep(10_000).then(() => order.push('hang'));
      await timeout;
      expect(clock.now()).toBe(3000);
      hold.release();
      await hang;
      expect(order).toEqual(['timeout', 'hang']);
      expect(clock.now()).toBe(10_000);
    });

    it('holds time again when the work wakes and goes back to real I/O', async () => {
      const clock = createVirtualClock({ start: 0 });
      const hold = clock.hold();
      let timedOut = false;
      const timeout = clock.sleep(5000).then(() => {
        timedOut = true;
      });
      await hold.clock.sleep(100);
      expect(clock.now()).toBe(100);
      for (let read = 0; read < 20; read += 1) await readFile(file, 'utf8');
      expect(timedOut).toBe(false);
      expect(hold.clock.now()).toBe(100);
      hold.release();
      await timeout;
      expect(clock.now()).toBe(5000);
    });

    it('lets a sleep aborted by its signal hold time again, and release twice harmlessly', async () => {
      const clock = createVirtualClock({ start: 0 });
      const hold = clock.hold();
      const controller = new AbortController();
      let timedOut = false;
      const timeout = clock.sleep(5000).then(() => {
        timedOut = true;
      });
      const cancelled = hold.clock.sleep(10_000, controller.signal).catch(() => 'cancelled');
      controller.abort(new Error('stop'));
      expect(await cancelled).toBe('cancelled');
      for (let read = 0; read < 5; read += 1) await readFile(file, 'utf8');
      expect(timedOut).toBe(false);
      hold.release();
      hold.release();
      await timeout;
      expect(clock.now()).toBe(5000);
      expect(clock.pending()).toBe(0);
    });
  });
});

describe('raceDeadline', () => {
  it('lets the virtual clock move again when the work throws at once', async () => {
    const clock = createVirtualClock({ start: 0 });
    expect(() =>
      raceDeadline(
        clock,
        1000,
        () => new Error('late'),
        () => {
          throw new Error('broken work');
        },
      ),
    ).toThrow('broken work');
    // A hold left behind would keep this sleep from ever waking.
    const woke = await Promise.race([
      clock.sleep(50).then(() => 'woke'),
      new Promise((resolve) => setTimeout(() => resolve('stuck'), 2000)),
    ]);
    expect(woke).toBe('woke');
    expect(clock.now()).toBe(50);
  });
});
