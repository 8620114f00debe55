import { getEventListeners } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { assert, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRealClock, createVirtualClock, type VirtualClock } from '../core/clock.js';
import { HookTimeoutError } from '../core/errors.js';
import { collectGarbage } from '../core/testing/collect-garbage.js';
import { createScriptedModel, textTurn, toolTurn } from '../simulator/scripted-model.js';
import { defineTool } from './define-tool.js';
import { callHook } from './hook-deadline.js';
import { createToolPipeline, type ToolPipelineOptions } from './pipeline.js';
import { runAgent } from './run-agent.js';
import { testRunState } from './testing/run-state.js';
import type { RunState, ToolCall } from './types.js';

/**
 * A hook is told when to stop through `run.signal`: at its deadline, or when the run is
 * cancelled. Its own work (a fetch, a timer) can end then instead of outliving the call.
 */

let executions = 0;
const read = defineTool({
  name: 'get_value',
  description: 'A read',
  effect: 'read',
  parameters: z.object({ key: z.string() }),
  execute: ({ key }) => {
    executions += 1;
    return { key };
  },
});
const readCall: ToolCall = { id: 'id_1', name: 'get_value', input: { key: 'a' } };

/** What a hook saw of its signal when it fired (or that it had none). */
const abortSeen = (run: RunState): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const { signal } = run;
    if (!signal) return reject(new Error('the hook was given no signal'));
    if (signal.aborted) return resolve(signal.reason);
    signal.addEventListener('abort', () => resolve(signal.reason), { once: true });
  });

async function runOne(options: Partial<ToolPipelineOptions>, state = testRunState()) {
  executions = 0;
  const outcome = await createToolPipeline({ tools: [read], validate: true, ...options }).run(
    readCall,
    state,
    0,
  );
  assert(outcome.kind === 'result', `the call ended '${outcome.kind}', not with a result`);
  return { ...outcome, executions, clock: state.clock as VirtualClock };
}

describe('the signal a hook is given', () => {
  it("aborts a PreToolUse hook's signal at its deadline, with the deadline's error", async () => {
    let reason: unknown;
    const { record, result, executions, clock } = await runOne({
      hooks: {
        preToolUse: [
          async function guard(_call, run) {
            const seen = abortSeen(run);
            // Sleeping lets virtual time move on to the deadline (60 s by default).
            await run.clock.sleep(120_000).catch(() => undefined);
            reason = await seen;
            return undefined;
          },
        ],
      },
    });
    expect(reason).toBeInstanceOf(HookTimeoutError);
    expect((reason as Error).message).toContain(
      'PreToolUse hook 1 (guard) did not answer within 60000 ms',
    );
    expect(record.decision).toBe('hook_deny');
    expect(result.content).toContain('was not executed');
    expect(executions).toBe(0);
    expect(clock.now()).toBe(60_000);
  });

  it("aborts a PostToolUse hook's signal at its deadline; the result is not shown", async () => {
    let reason: unknown;
    const { record, result } = await runOne({
      hooks: {
        postToolUse: [
          async (_call, output, run) => {
            reason = await abortSeen(run);
            return output;
          },
        ],
        timeoutMs: 20,
      },
    });
    expect(reason).toBeInstanceOf(HookTimeoutError);
    expect(record.decision).toBe('allow');
    expect(result.content).toContain('did not answer within 20 ms');
  });

  it('ends a real timer the hook passed its signal to at the deadline', async () => {
    let ended: unknown;
    const { record } = await runOne(
      {
        hooks: {
          preToolUse: [
            async (_call, run) => {
              // Far past the test's own timeout: only the signal can end it in time.
              await delay(120_000, undefined, { signal: run.signal }).catch((error: unknown) => {
                ended = error;
              });
              return undefined;
            },
          ],
          timeoutMs: 20,
        },
      },
      testRunState({ clock: createRealClock() }),
    );
    expect(record.decision).toBe('hook_deny');
    await new Promise((resolve) => setImmediate(resolve));
    expect((ended as Error | undefined)?.name).toBe('AbortError');
    expect((ended as { cause?: unknown }).cause).toBeInstanceOf(HookTimeoutError);
  });

  it('ends a virtual sleep the hook passed its signal to, on a clock of its own', async () => {
    const own = createVirtualClock({ start: 0, autoAdvance: false });
    let ended: unknown;
    await runOne({
      hooks: {
        preToolUse: [
          async (_call, run) => {
            await own.sleep(1000, run.signal).catch((error: unknown) => {
              ended = error;
            });
            return undefined;
          },
        ],
        timeoutMs: 20,
      },
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(ended).toBeInstanceOf(HookTimeoutError);
    expect(own.pending()).toBe(0);
  });

  it("aborts the signal when the run is cancelled, with the run's reason; the call is then not run", async () => {
    const run = new AbortController();
    let reason: unknown;
    const cancelled = new Error('the user pressed Ctrl-C');
    executions = 0;
    const outcome = await createToolPipeline({
      tools: [read],
      validate: true,
      signal: run.signal,
      hooks: {
        preToolUse: [
          async (_call, state) => {
            const seen = abortSeen(state);
            run.abort(cancelled);
            reason = await seen;
            throw reason;
          },
        ],
      },
    }).run(readCall, testRunState(), 0);
    expect(reason).toBe(cancelled);
    // Cut off by the cancel, the hook did not judge the call: no result, a resumed run runs it.
    expect(outcome.kind).toBe('not_run');
    expect(executions).toBe(0);
  });

  it('aborts with the signal a run was started with (runAgent)', async () => {
    const controller = new AbortController();
    const cancelled = new Error('the user pressed Ctrl-C');
    let reason: unknown;
    await runAgent({
      harness: {
        name: 'signal',
        tools: [read],
        system: () => 'A test agent.',
        hooks: {
          preToolUse: [
            async (_call, run) => {
              const seen = abortSeen(run);
              controller.abort(cancelled);
              reason = await seen;
              return undefined;
            },
          ],
          // Without the run's signal, the deadline's ends the wait: a failure, not a hang.
          timeoutMs: 1000,
        },
        limits: { maxSteps: 3 },
      },
      model: createScriptedModel([
        toolTurn([{ name: 'get_value', input: { key: 'a' } }]),
        textTurn('ok'),
      ]),
      modelId: 'scripted',
      prompt: 'go',
      clock: createVirtualClock({ start: 0 }),
      mode: 'unattended',
      signal: controller.signal,
    });
    expect(reason).toBe(cancelled);
  });

  it('leaves the signal of a hook that answered in time alone', async () => {
    let signal: AbortSignal | undefined;
    const { record } = await runOne({
      hooks: {
        preToolUse: [
          async (_call, run) => {
            signal = run.signal;
            return undefined;
          },
        ],
        timeoutMs: 20,
      },
    });
    expect(record.decision).toBe('allow');
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal?.aborted).toBe(false);
  });

  it("keeps nothing of a finished hook call on the run's signal, though the hook listened on it", async () => {
    const run = new AbortController();
    const state = testRunState();
    const seen: Array<WeakRef<AbortSignal>> = [];
    const listening = (hookRun: RunState) => {
      hookRun.signal?.addEventListener('abort', () => {});
      seen.push(new WeakRef(hookRun.signal!));
    };
    const deadline = { timeoutMs: 20, signal: run.signal };
    for (let call = 0; call < 50; call += 1) {
      await callHook('PreToolUse[0]', deadline, state, (hookRun) => listening(hookRun));
      await callHook('PreToolUse[0]', deadline, state, async (hookRun) => listening(hookRun));
    }
    // One that times out: its listener goes at the deadline.
    const timedOut = await callHook('PreToolUse[0]', deadline, state, (hookRun) => {
      listening(hookRun);
      return new Promise(() => {});
    });
    expect(timedOut.kind).toBe('timeout');
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
    await collectGarbage();
    expect(seen.filter((signal) => signal.deref() !== undefined)).toHaveLength(0);
    // The run is still cancellable: a hook called now hears it.
    let reason: unknown;
    await callHook('PreToolUse[0]', deadline, state, async (hookRun) => {
      const heard = abortSeen(hookRun);
      run.abort(new Error('cancelled'));
      reason = await heard;
    });
    expect(reason).toEqual(new Error('cancelled'));
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });
});
