import { getEventListeners } from 'node:events';
import { assert, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createVirtualClock } from '../core/clock.js';
import { createScriptedModel, textTurn, toolTurn } from '../simulator/scripted-model.js';
import { defineTool } from './define-tool.js';
import { createToolPipeline } from './pipeline.js';
import { runAgent } from './run-agent.js';
import { durablePipeline } from './testing/durable-pipeline.js';
import { testRunState } from './testing/run-state.js';

/**
 * A tool's `context.signal` aborts when its call times out or the run is cancelled, so that
 * its own work stops. A write stopped that way may have taken effect before it failed.
 */

describe("a tool's context.signal", () => {
  it.each([false, true])(
    "aborts with the run's reason when the run is cancelled (timeouts: %s)",
    async (timeouts) => {
      const controller = new AbortController();
      const cancelled = new Error('the user pressed Ctrl-C');
      let seen: { aborted: boolean; reason: unknown } | undefined;
      const tool = defineTool({
        name: 'get_slow',
        description: 'A read the run is cancelled during',
        effect: 'read',
        timeoutMs: 5000,
        parameters: z.object({}),
        execute: (_args, { signal }) => {
          controller.abort(cancelled);
          seen = { aborted: signal.aborted, reason: signal.reason };
          return 'ok';
        },
      });
      await runAgent({
        harness: {
          name: 'cancel',
          tools: [tool],
          system: () => 's',
          timeouts,
          limits: { maxSteps: 3 },
        },
        model: createScriptedModel([toolTurn([{ name: 'get_slow', input: {} }]), textTurn('ok')]),
        modelId: 'scripted',
        prompt: 'go',
        clock: createVirtualClock({ start: 0 }),
        mode: 'unattended',
        signal: controller.signal,
      });
      expect(seen).toEqual({ aborted: true, reason: cancelled });
    },
  );

  it.each([false, true])(
    "leaves no listener on the run's signal after its calls end (timeouts: %s)",
    async (timeouts) => {
      const run = new AbortController();
      const tool = defineTool({
        name: 'get_value',
        description: 'A read that listens on its signal',
        effect: 'read',
        timeoutMs: 1000,
        parameters: z.object({}),
        execute: (_args, { signal }) => {
          signal.addEventListener('abort', () => {});
          return 'ok';
        },
      });
      const pipeline = createToolPipeline({ tools: [tool], timeouts, signal: run.signal });
      const state = testRunState();
      for (let call = 0; call < 20; call += 1) {
        const outcome = await pipeline.run(
          { id: `t${call}`, name: 'get_value', input: {} },
          state,
          0,
        );
        expect(outcome.kind).toBe('result');
      }
      expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
    },
  );
});

describe('a write that fails after the run was cancelled', () => {
  it.each([false, true])(
    'keeps its outcome unknown in the journal: a retry does not run it (timeouts: %s)',
    async (timeouts) => {
      const run = new AbortController();
      let executions = 0;
      const tool = defineTool({
        name: 'charge',
        description: 'Charges, then waits for a confirmation the cancellation ends',
        effect: 'write',
        timeoutMs: 5000,
        parameters: z.object({ amount: z.number() }),
        execute: async (_args, { signal }) => {
          executions += 1;
          // The charge reached the bank; the wait for its confirmation is cut off.
          const confirmation = new Promise((_resolve, reject) =>
            signal.addEventListener('abort', () => reject(new Error('confirmation aborted'))),
          );
          run.abort(new Error('the user pressed Ctrl-C'));
          await confirmation;
          return 'charged';
        },
      });
      const durable = await durablePipeline({ tools: [tool], timeouts, signal: run.signal });
      const call = { id: 'a', name: 'charge', input: { amount: 5 } };
      const first = await durable.call(call);
      assert(first.kind === 'result', first.kind);
      expect(first.record.decision).toBe('outcome_unknown');
      expect(first.result.content).toContain('its outcome is unknown');
      expect(first.result.content).not.toContain('confirmation aborted');
      expect([...durable.journal.view.writes.values()].map((write) => write.made)).toEqual([
        'unknown',
      ]);
      const retry = await durable.call({ ...call, id: 'b' });
      assert(retry.kind === 'result', retry.kind);
      expect(retry.record.decision).toBe('outcome_unknown');
      expect(executions).toBe(1);
    },
  );
});
