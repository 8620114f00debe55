import { EventEmitter, once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { assert, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Clock, VirtualClock } from '../core/clock.js';
import { ToolTimeoutError, WriteNotMadeError } from '../core/errors.js';
import { defineTool } from './define-tool.js';
import type { RunJournal } from './journal/run-journal.js';
import { createToolPipeline, type ToolOutcome } from './pipeline.js';
import { durablePipeline } from './testing/durable-pipeline.js';
import { testRunState } from './testing/run-state.js';
import type { ToolExecuteContext } from './types.js';

/**
 * A tool that timed out is abandoned, and may ignore its signal. Its waits on the run's clock
 * end at the deadline (pending ones reject, later ones reject at once), so it cannot move the
 * run's virtual time after the run moved on.
 */

/** A tool that ignores its signal and sleeps on the clock `pick` chooses from its context. */
function sleeper(pick: (context: ToolExecuteContext) => Clock, effect: 'read' | 'write' = 'read') {
  const seen: { ended?: unknown; slept: boolean; executions: number } = {
    slept: false,
    executions: 0,
  };
  const tool = defineTool({
    name: effect === 'read' ? 'get_slow' : 'set_slow',
    description: 'Ignores its signal and sleeps 10 s',
    effect,
    timeoutMs: 3000,
    parameters: z.object({}),
    execute: async (_args, context) => {
      seen.executions += 1;
      try {
        await pick(context).sleep(10_000);
        seen.slept = true;
      } catch (error) {
        seen.ended = error;
        throw error;
      }
      return 'slept';
    },
  });
  return { tool, seen };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** The outcome of a call that must have ended with a result. */
function resulted(outcome: ToolOutcome) {
  assert(outcome.kind === 'result', `the call ended '${outcome.kind}', not with a result`);
  return outcome;
}

/** Where each write of the run stands, as its journal says. */
const writeStates = (journal: RunJournal) =>
  [...journal.view.writes.values()].map((write) => write.made);

describe('a tool that timed out and keeps sleeping on the run clock', () => {
  it.each([
    ['context.clock', (context: ToolExecuteContext) => context.clock],
    ['context.run.clock', (context: ToolExecuteContext) => context.run.clock],
  ])('ends its pending sleep on %s at the deadline; time stays there', async (_name, pick) => {
    const { tool, seen } = sleeper(pick);
    const state = testRunState();
    const clock = state.clock as VirtualClock;
    const { record } = resulted(
      await createToolPipeline({ tools: [tool], timeouts: true }).run(
        { id: 'a', name: tool.name, input: {} },
        state,
        0,
      ),
    );
    expect(record.decision).toBe('timeout');
    expect(record.ms).toBe(3000);
    await settle();
    expect(seen.ended).toBeInstanceOf(ToolTimeoutError);
    expect(seen.slept).toBe(false);
    expect(clock.pending()).toBe(0);
    // The run goes on: its next wait is not cut short by the abandoned tool's 10 s.
    const later = clock.sleep(1000).then(() => clock.now());
    expect(await later).toBe(4000);
    await settle();
    expect(clock.now()).toBe(4000);
  });

  it('ends a sleep the tool starts after its deadline at once, without moving time', async () => {
    let release!: () => void;
    const working = new Promise<void>((resolve) => {
      release = resolve;
    });
    let ended: unknown;
    const tool = defineTool({
      name: 'get_late',
      description: 'Real work past its deadline, then a sleep on the run clock',
      effect: 'read',
      timeoutMs: 20,
      parameters: z.object({}),
      execute: async (_args, { run }) => {
        await working;
        await run.clock.sleep(5000).catch((error: unknown) => {
          ended = error;
        });
        return 'done';
      },
    });
    const state = testRunState();
    const clock = state.clock as VirtualClock;
    const { record } = resulted(
      await createToolPipeline({ tools: [tool], timeouts: true }).run(
        { id: 'a', name: tool.name, input: {} },
        state,
        0,
      ),
    );
    expect(record.decision).toBe('timeout');
    expect(clock.now()).toBe(20);
    release();
    await settle();
    await settle();
    expect(ended).toBeInstanceOf(ToolTimeoutError);
    expect(clock.pending()).toBe(0);
    expect(clock.now()).toBe(20);
  });

  it('leaves a write whose sleep the deadline ended with an unknown outcome: a retry does not run it', async () => {
    const { tool, seen } = sleeper((context) => context.clock, 'write');
    const durable = await durablePipeline({ tools: [tool], timeouts: true });
    const first = resulted(await durable.call({ id: 'a', name: tool.name, input: {} }));
    expect(first.record.decision).toBe('timeout');
    await settle();
    expect(seen.ended).toBeInstanceOf(ToolTimeoutError);
    // Cut off by the harness, not failed by itself: it may have written before its sleep.
    expect(writeStates(durable.journal)).toEqual(['unknown']);
    const retry = resulted(await durable.call({ id: 'b', name: tool.name, input: {} }));
    expect(retry.record.decision).toBe('outcome_unknown');
    expect(seen.executions).toBe(1);
  });
});

describe('a write whose timeout cut it off', () => {
  it.each([
    [
      'timers/promises setTimeout (an AbortError whose cause is the timeout)',
      (context: ToolExecuteContext) =>
        delay(10_000, undefined, { signal: context.signal }).then(() => undefined),
    ],
    [
      'events.once (an AbortError whose cause is the timeout)',
      (context: ToolExecuteContext) =>
        once(new EventEmitter(), 'confirmed', { signal: context.signal }).then(() => undefined),
    ],
    [
      "the tool's own error wrapping the timeout",
      (context: ToolExecuteContext) =>
        context.clock.sleep(10_000).catch((error: unknown) => {
          throw new Error(`confirmation failed: ${(error as Error).message}`);
        }),
    ],
    [
      'a failure of its own after the deadline',
      (context: ToolExecuteContext) =>
        new Promise<void>((_resolve, reject) =>
          context.signal.addEventListener('abort', () =>
            setImmediate(() => reject(new Error('downstream refused the request'))),
          ),
        ),
    ],
  ])(
    'leaves a write that fails after its deadline with an unknown outcome, whatever the error: %s',
    async (_how, wait) => {
      let executions = 0;
      const tool = defineTool({
        name: 'charge',
        description: 'Charges, then waits for a confirmation its timeout cuts off',
        effect: 'write',
        timeoutMs: 20,
        parameters: z.object({}),
        execute: async (_args, context) => {
          executions += 1;
          await wait(context);
          return 'charged';
        },
      });
      const durable = await durablePipeline({ tools: [tool], timeouts: true });
      const first = resulted(await durable.call({ id: 'a', name: 'charge', input: {} }));
      expect(first.record.decision).toBe('timeout');
      await settle();
      await settle();
      // It may have charged before the wait that was ended: never run it again by itself.
      expect(writeStates(durable.journal)).toEqual(['unknown']);
      const retry = resulted(await durable.call({ id: 'b', name: 'charge', input: {} }));
      expect(retry.record.decision).toBe('outcome_unknown');
      expect(executions).toBe(1);
    },
  );

  it('journals a write that failed before its deadline as not made, so a retry may run it', async () => {
    let executions = 0;
    const tool = defineTool({
      name: 'set_refused',
      description: 'The downstream system refuses at once',
      effect: 'write',
      timeoutMs: 1000,
      parameters: z.object({}),
      execute: async () => {
        executions += 1;
        if (executions > 1) return 'written';
        throw new WriteNotMadeError('downstream refused the request');
      },
    });
    const durable = await durablePipeline({ tools: [tool], timeouts: true });
    const first = resulted(await durable.call({ id: 'a', name: tool.name, input: {} }));
    expect(first.record.decision).toBe('failed');
    expect(writeStates(durable.journal)).toEqual(['no']);
    const retry = resulted(await durable.call({ id: 'b', name: tool.name, input: {} }));
    expect(retry.record.decision).toBe('allow');
    expect(executions).toBe(2);
  });
});
