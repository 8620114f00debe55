import { assert, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createVirtualClock } from '../../core/clock.js';
import { createScriptedModel, textTurn, toolTurn } from '../../simulator/scripted-model.js';
import { defineTool } from '../define-tool.js';
import { createMemoryJournalStore } from '../journal/journal-store.js';
import { createToolPipeline } from '../pipeline.js';
import { resumeAgent } from '../resume-agent.js';
import { runAgent } from '../run-agent.js';
import type { Decision, RunState, ToolCall, ToolCallRecord } from '../types.js';
import { blockRepeatedCall } from './block-repeated-call.js';

function record(tool: string, input: unknown, decision: Decision, step = 1): ToolCallRecord {
  return {
    step,
    id: `toolu_${step}`,
    tool,
    input,
    decision,
    isError: decision !== 'allow',
    ms: 0,
    resultChars: 0,
    effect: 'read',
  };
}

function runWith(history: ToolCallRecord[]): RunState {
  return {
    runId: 'run-1',
    step: history.length + 1,
    mode: 'unattended',
    clock: createVirtualClock({ start: 0 }),
    history,
    store: new Map(),
  };
}

const call = (name: string, input: unknown): ToolCall => ({ id: 'toolu_new', name, input });

describe('blockRepeatedCall', () => {
  it('lets a first call through', async () => {
    const hook = blockRepeatedCall();
    expect(await hook(call('get_order', { order_id: 'ORD1001' }), runWith([]))).toBeUndefined();
  });

  it('denies a call with the same tool and arguments as an earlier one, whatever the key order', async () => {
    const hook = blockRepeatedCall();
    const history = [record('get_payment', { order_id: 'ORD1001', verbose: true }, 'timeout')];
    const verdict = await hook(
      call('get_payment', { verbose: true, order_id: 'ORD1001' }),
      runWith(history),
    );
    expect(verdict).toEqual({
      decision: 'deny',
      reason:
        'get_payment was already called with the same arguments in this run (decision: timeout); do not repeat it: answer with what you have or ask the user',
    });
  });

  it('lets through the same tool with other arguments and another tool with the same arguments', async () => {
    const hook = blockRepeatedCall();
    const history = [record('get_payment', { order_id: 'ORD1001' }, 'allow')];
    expect(
      await hook(call('get_payment', { order_id: 'ORD1002' }), runWith(history)),
    ).toBeUndefined();
    expect(
      await hook(call('get_order', { order_id: 'ORD1001' }), runWith(history)),
    ).toBeUndefined();
  });

  it('denies a retry after a timeout when retries are not allowed', async () => {
    const hook = blockRepeatedCall();
    const history = [record('get_payment', { order_id: 'ORD1001' }, 'timeout')];
    const verdict = await hook(call('get_payment', { order_id: 'ORD1001' }), runWith(history));
    expect(verdict?.decision).toBe('deny');
  });

  it('with allowTimeoutRetryOnce lets one retry of a timed-out call through, but not a second', async () => {
    const hook = blockRepeatedCall({ allowTimeoutRetryOnce: true });
    const input = { order_id: 'ORD1001' };
    const once = [record('get_payment', input, 'timeout', 1)];
    expect(await hook(call('get_payment', input), runWith(once))).toBeUndefined();

    const twice = [...once, record('get_payment', input, 'timeout', 2)];
    const verdict = await hook(call('get_payment', input), runWith(twice));
    expect(verdict?.decision).toBe('deny');
    expect(verdict?.reason).toContain('(decision: timeout)');
  });

  it('with allowTimeoutRetryOnce still denies a repeat of a call that did not time out', async () => {
    const hook = blockRepeatedCall({ allowTimeoutRetryOnce: true });
    const history = [record('get_payment', { order_id: 'ORD1001' }, 'allow')];
    const verdict = await hook(call('get_payment', { order_id: 'ORD1001' }), runWith(history));
    expect(verdict?.reason).toContain('(decision: allow)');
  });

  it('names the decision of the latest identical call that ran, not an earlier block', async () => {
    const hook = blockRepeatedCall({ allowTimeoutRetryOnce: true });
    const input = { order_id: 'ORD1001' };
    const history = [
      record('get_payment', input, 'timeout', 1),
      record('get_payment', input, 'allow', 2),
      record('get_payment', input, 'hook_deny', 3),
    ];
    const verdict = await hook(call('get_payment', input), runWith(history));
    expect(verdict?.reason).toContain('(decision: allow)');
  });

  // A call the run was cancelled before gets no result and stays out of the history: the
  // resumed run runs it, and the hook does not take it for a repeat of itself.
  it('lets a call the run was cancelled before through when the resumed run runs it', async () => {
    let executions = 0;
    const getPayment = defineTool({
      name: 'get_payment',
      description: 'Look a payment up',
      effect: 'read',
      parameters: z.object({ order_id: z.string() }),
      execute: ({ order_id }) => {
        executions += 1;
        return { order_id, status: 'refund processing' };
      },
    });
    const harness = {
      name: 'repeat',
      tools: [getPayment],
      system: () => 's',
      validate: true,
      hooks: { preToolUse: [blockRepeatedCall()] },
      limits: { maxSteps: 5 },
    };
    const journals = createMemoryJournalStore();
    const controller = new AbortController();
    const cancelled = await runAgent({
      harness,
      // Ctrl-C as the model answers: its call is not run.
      model: createScriptedModel([
        () => {
          controller.abort(new Error('the user pressed Ctrl-C'));
          return toolTurn([{ name: 'get_payment', input: { order_id: 'ORD1001' } }]);
        },
      ]),
      modelId: 'scripted',
      prompt: 'go',
      clock: createVirtualClock({ start: 0 }),
      mode: 'unattended',
      runId: 'run-1',
      journals,
      signal: controller.signal,
    });
    expect(cancelled.status).toBe('error');
    expect(cancelled.toolCalls).toEqual([]);
    expect(executions).toBe(0);
    const resumed = await resumeAgent({
      runId: 'run-1',
      journals,
      harness,
      model: createScriptedModel([textTurn('refund processing')]),
      clock: createVirtualClock({ start: 0 }),
    });
    expect(resumed.status).toBe('done');
    expect(resumed.toolCalls.map((each) => each.decision)).toEqual(['allow']);
    expect(executions).toBe(1);
  });
});

describe('blockRepeatedCall in one turn of parallel calls', () => {
  it('runs the first of 499 identical calls once and denies the other 498, results in call order', async () => {
    let executions = 0;
    const getOrder = defineTool({
      name: 'get_order',
      description: 'Look an order up',
      effect: 'read',
      parameters: z.object({ order_id: z.string() }),
      execute: async ({ order_id }) => {
        executions += 1;
        return { order_id, status: 'completed' };
      },
    });
    const pipeline = createToolPipeline({
      tools: [getOrder],
      validate: true,
      hooks: { preToolUse: [blockRepeatedCall()] },
    });
    const calls = Array.from({ length: 500 }, (_, index) => ({
      id: `toolu_${index}`,
      name: 'get_order',
      input: { order_id: 'ORD1001' },
    }));
    // One different call in the middle runs too.
    calls[250] = { id: 'toolu_250', name: 'get_order', input: { order_id: 'ORD2002' } };
    const outcomes = (
      await pipeline.runAll(
        calls,
        calls.map((_, index) => index),
        runWith([]),
      )
    ).map((outcome) => {
      assert(outcome.kind === 'result', outcome.kind);
      return outcome;
    });

    expect(executions).toBe(2);
    expect(outcomes.map((outcome) => outcome.result.tool_use_id)).toEqual(
      calls.map((each) => each.id),
    );
    expect(outcomes[0]!.record.decision).toBe('allow');
    expect(outcomes[250]!.record.decision).toBe('allow');
    const denied = outcomes.filter((outcome) => outcome.record.decision === 'hook_deny');
    expect(denied).toHaveLength(498);
    expect(denied[0]!.result).toMatchObject({ is_error: true });
    expect(denied[0]!.result.content).toContain(
      'get_order is called with the same arguments earlier in this turn (toolu_0)',
    );
  });

  it('lets a retry of a timed-out call through once even when it is listed twice in one turn', async () => {
    const hook = blockRepeatedCall({ allowTimeoutRetryOnce: true });
    const input = { order_id: 'ORD1001' };
    const history = [record('get_payment', input, 'timeout', 1)];
    const first = call('get_payment', input);
    expect(await hook(first, runWith(history))).toBeUndefined();
    const second = await hook(call('get_payment', input), {
      ...runWith(history),
      earlierInBatch: [first],
    });
    expect(second?.decision).toBe('deny');
  });
});
