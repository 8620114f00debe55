import { assert, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Clock, createRealClock, type VirtualClock } from '../core/clock.js';
import { defineTool } from './define-tool.js';
import { createToolPipeline, type ToolOutcome } from './pipeline.js';
import { testRunState } from './testing/run-state.js';
import type { RunState, ToolExecuteContext } from './types.js';

/**
 * A tool or hook that answered but left a wait running on the clock it was given: once its
 * call has ended, that wait cannot move the run's virtual time (as a timed-out tool's waits
 * cannot; see tool-timeout.test.ts). It rejects, and nothing it was to do later runs.
 */

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** The outcome of a call that must have ended with a result. */
function resulted(outcome: ToolOutcome) {
  assert(outcome.kind === 'result', `the call ended '${outcome.kind}', not with a result`);
  return outcome;
}

/** What the wait left behind saw: when it woke (it should not) and what it ended with. */
interface Leftover {
  wokeAt?: number;
  ended?: unknown;
}

/** Starts a 5 s wait on `clock` and does not await it, as `void sleep(5000).then(...)` does. */
function leaveWait(clock: Clock, seen: Leftover): void {
  void clock.sleep(5000).then(
    () => {
      seen.wokeAt = clock.now();
    },
    (error: unknown) => {
      seen.ended = error;
    },
  );
}

/** The run goes on: its own 1 s wait must end 1 s later, and time must stay there. */
async function runGoesOn(clock: VirtualClock): Promise<void> {
  const from = clock.now();
  expect(await clock.sleep(1000).then(() => clock.now())).toBe(from + 1000);
  await settle();
  await settle();
  expect(clock.now()).toBe(from + 1000);
  expect(clock.pending()).toBe(0);
}

const picks = [
  ['context.clock', (context: ToolExecuteContext) => context.clock],
  ['context.run.clock', (context: ToolExecuteContext) => context.run.clock],
] as const;
const cases = picks.flatMap(([clockName, pick]) =>
  [false, true].flatMap((timeouts) =>
    (['at once', 'after a wait of its own'] as const).map((returns) => ({
      clockName,
      pick,
      timeouts,
      returns,
    })),
  ),
);

describe('a tool that returned and left a wait running on its clock', () => {
  it.each(cases)(
    'cannot move virtual time with a wait on $clockName (timeouts $timeouts, returning $returns)',
    async ({ pick, timeouts, returns }) => {
      const seen: Leftover = {};
      const tool = defineTool({
        name: 'get_quick',
        description: 'Answers, and leaves a 5 s wait behind',
        effect: 'read',
        timeoutMs: 3000,
        parameters: z.object({}),
        execute: (_args, context) => {
          leaveWait(pick(context), seen);
          if (returns === 'at once') return 'quick';
          return pick(context)
            .sleep(10)
            .then(() => 'quick');
        },
      });
      const state = testRunState();
      const clock = state.clock as VirtualClock;
      const { record } = resulted(
        await createToolPipeline({ tools: [tool], timeouts }).run(
          { id: 'a', name: tool.name, input: {} },
          state,
          0,
        ),
      );
      expect(record.decision).toBe('allow');
      expect(record.ms).toBe(returns === 'at once' ? 0 : 10);
      await runGoesOn(clock);
      expect(seen.wokeAt).toBeUndefined();
      expect((seen.ended as Error | undefined)?.message).toBe(
        "the call of get_quick had ended: its waits on context.clock and context.run.clock end with it, so code it left running cannot move the run's time (await every wait before returning)",
      );
    },
  );

  it('ends a wait started after the call ended at once, without moving time', async () => {
    const seen: Leftover = {};
    let kept: RunState | undefined;
    const tool = defineTool({
      name: 'get_quick',
      description: 'Keeps its run view for later',
      effect: 'read',
      parameters: z.object({}),
      execute: (_args, { run }) => {
        kept = run;
        return 'quick';
      },
    });
    const state = testRunState();
    const clock = state.clock as VirtualClock;
    resulted(
      await createToolPipeline({ tools: [tool] }).run(
        { id: 'a', name: tool.name, input: {} },
        state,
        0,
      ),
    );
    leaveWait(kept!.clock, seen);
    await settle();
    // Not "await every wait": the tool did; it kept a clock for later (a rate limiter made once).
    expect((seen.ended as Error | undefined)?.message).toBe(
      'a wait on a clock kept from an earlier call of get_quick: context.clock and context.run.clock belong to one call and end with it, so keep no clock across calls; wait on the clock of the call that is running',
    );
    expect(seen.wokeAt).toBeUndefined();
    expect(clock.pending()).toBe(0);
    expect(clock.now()).toBe(0);
  });
});

/** `clock` with its waits cut to 20 ms: a real test cannot wait 5 s. */
const shortWaits = (clock: Clock, ms = 20): Clock => ({
  now: () => clock.now(),
  sleep: () => clock.sleep(ms),
});

describe('on a real clock (live runs)', () => {
  // Real time moves anyway: a live tool's background work (a cache's expiry) must run, and must
  // not become an unhandled rejection that ends the agent process.
  it.each([false, true])(
    'a wait a tool or hook left running wakes as it would have (timeouts %s)',
    async (timeouts) => {
      const seen: Leftover = {};
      const hookSeen: Leftover = {};
      const tool = defineTool({
        name: 'get_rate',
        description: 'Answers, and evicts its cache entry later',
        effect: 'read',
        timeoutMs: 3000,
        parameters: z.object({}),
        execute: (_args, context) => {
          leaveWait(shortWaits(context.clock), seen);
          return 'rate';
        },
      });
      const state = testRunState({ clock: createRealClock() });
      const { record } = resulted(
        await createToolPipeline({
          tools: [tool],
          timeouts,
          hooks: {
            preToolUse: [
              (_call, run) => {
                leaveWait(shortWaits(run.clock), hookSeen);
                return undefined;
              },
            ],
          },
        }).run({ id: 'a', name: tool.name, input: {} }, state, 0),
      );
      expect(record.decision).toBe('allow');
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect([seen.ended, hookSeen.ended]).toEqual([undefined, undefined]);
      expect([typeof seen.wokeAt, typeof hookSeen.wokeAt]).toEqual(['number', 'number']);
    },
  );
});

describe('on a real clock, a tool that timed out', () => {
  it('keeps the background wait it left: it wakes, and nothing rejects', async () => {
    const seen: Leftover = {};
    const tool = defineTool({
      name: 'get_rate',
      description: 'Leaves a cache expiry behind, then hangs past its timeout',
      effect: 'read',
      timeoutMs: 30,
      parameters: z.object({}),
      execute: async (_args, context) => {
        leaveWait(shortWaits(context.clock, 60), seen);
        await new Promise((resolve) => setTimeout(resolve, 80));
        return 'late';
      },
    });
    const state = testRunState({ clock: createRealClock() });
    const { record } = resulted(
      await createToolPipeline({ tools: [tool], timeouts: true }).run(
        { id: 'a', name: tool.name, input: {} },
        state,
        0,
      ),
    );
    expect(record.decision).toBe('timeout');
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(seen.ended).toBeUndefined();
    expect(typeof seen.wokeAt).toBe('number');
  });
});

describe('a hook that answered and left a wait running on run.clock', () => {
  it.each(['at once', 'after a wait of its own'] as const)(
    'cannot move virtual time (answering %s)',
    async (answers) => {
      const seen: Leftover = {};
      const tool = defineTool({
        name: 'get_quick',
        description: 'A read',
        effect: 'read',
        parameters: z.object({}),
        execute: () => 'quick',
      });
      const state = testRunState();
      const clock = state.clock as VirtualClock;
      const { record } = resulted(
        await createToolPipeline({
          tools: [tool],
          hooks: {
            preToolUse: [
              function guard(_call, run) {
                leaveWait(run.clock, seen);
                return answers === 'at once'
                  ? undefined
                  : run.clock.sleep(10).then(() => undefined);
              },
            ],
          },
        }).run({ id: 'a', name: tool.name, input: {} }, state, 0),
      );
      expect(record.decision).toBe('allow');
      await runGoesOn(clock);
      expect(seen.wokeAt).toBeUndefined();
      expect((seen.ended as Error | undefined)?.message).toBe(
        "the call of PreToolUse hook 1 (guard) had ended: its waits on run.clock end with it, so code it left running cannot move the run's time (await every wait before returning)",
      );
    },
  );
});
