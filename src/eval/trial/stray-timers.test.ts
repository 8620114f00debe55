import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { inTrialScope, isPending, StrayTimerError, settleStrayTimers } from './stray-timers.js';

describe('isPending', () => {
  // It reads Node's `_destroyed` mark: a Node that drops it fails here, not silently in a run.
  it('is true for a timer or an immediate that has not run, false once it ran or was cleared', async () => {
    const fires = setTimeout(() => {}, 1);
    const cleared = setTimeout(() => {}, 60_000);
    const interval = setInterval(() => {}, 60_000);
    const immediate = setImmediate(() => {});
    const clearedImmediate = setImmediate(() => {});
    expect([fires, cleared, interval, immediate, clearedImmediate].map(isPending)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    clearTimeout(cleared);
    clearImmediate(clearedImmediate);
    await sleep(20);
    expect([fires, cleared, interval, immediate, clearedImmediate].map(isPending)).toEqual([
      false,
      false,
      true,
      false,
      false,
    ]);
    clearInterval(interval);
    expect(isPending(interval)).toBe(false);
  });

  it('is false for an unref-ed timer, which would not keep a process alive', () => {
    const timer = setTimeout(() => {}, 60_000).unref();
    expect(isPending(timer)).toBe(false);
    clearTimeout(timer);
  });
});

describe('settleStrayTimers', () => {
  it('waits for a timer a trial left until it ran', async () => {
    let ran = false;
    await inTrialScope('T9 baseline trial 1', async () => {
      // Set by a callback the trial started: the scope is inherited.
      await nextTurn();
      setTimeout(() => {
        ran = true;
      }, 30);
    })(undefined);
    await settleStrayTimers(60_000);
    expect(ran).toBe(true);
  });

  // Set after the trial returned, by code it started: an un-awaited helper that awaits a sleep
  // first, and the promise timers. A wrapper of the global setTimeout missed each (found by review).
  it.each([
    [
      'an un-awaited helper, after its own await',
      (done: () => void) => {
        void (async () => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          setTimeout(done, 30);
        })();
      },
    ],
    ['node:timers/promises', (done: () => void) => void sleep(40).then(done)],
    [
      'an async timer callback',
      (done: () => void) => {
        setTimeout(async () => {
          await null;
          setTimeout(done, 30);
        }, 10);
      },
    ],
  ])('waits for a timer set by %s once the trial returned', async (_shape, start) => {
    let ran = false;
    await inTrialScope('T9 baseline trial 1', async () => {
      start(() => {
        ran = true;
      });
    })(undefined);
    expect(ran).toBe(false);
    await settleStrayTimers(60_000);
    expect(ran).toBe(true);
  });

  it('ignores timers set outside any trial', async () => {
    await inTrialScope('T9 baseline trial 1', async () => {})(undefined);
    const outside = setTimeout(() => {}, 60_000);
    try {
      await settleStrayTimers(0);
    } finally {
      clearTimeout(outside);
    }
  });

  it('names the trials whose timers are still pending after the wait, then forgets them', async () => {
    const timers: NodeJS.Timeout[] = [];
    for (const trial of ['T9 upgraded trial 2', 'T9 baseline trial 1', 'T9 upgraded trial 2']) {
      await inTrialScope(trial, async () => {
        timers.push(setTimeout(() => {}, 60_000));
      })(undefined);
    }
    try {
      const error = await settleStrayTimers(10).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(StrayTimerError);
      expect((error as Error).message).toMatch(
        /^3 timers set by T9 baseline trial 1 and T9 upgraded trial 2 were still pending 0\.01 s after its last trial; /,
      );
      // Reported once: the next task does not wait for them again.
      await settleStrayTimers(0);
    } finally {
      for (const timer of timers) clearTimeout(timer);
    }
  });

  it('lists at most three trials by name', () => {
    const trials = ['a', 'b', 'c', 'd', 'e'].map((name) => `T9 ${name} trial 1`);
    expect(new StrayTimerError(trials, 2000).message).toMatch(
      /^5 timers set by T9 a trial 1, T9 b trial 1, T9 c trial 1 and 2 more trials were still pending 2 s after/,
    );
  });
});
