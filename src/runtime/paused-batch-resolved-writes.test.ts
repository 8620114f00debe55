import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { WriteNotMadeError } from '../core/errors.js';
import { type CheckpointStore, createMemoryCheckpointStore } from './checkpoint-store.js';
import { defineTool } from './define-tool.js';
import type { Harness } from './harness.js';
import { resumeAgent } from './resume-agent.js';
import { runAgent } from './run-agent.js';
import { pausedAfterTimeout, testClock, toolResults } from './testing/paused-payment.js';
import { createScriptedModel, textTurn, toolTurn } from './testing/scripted-model.js';
import { refundTool } from './testing/write-tools.js';
import type { ToolDefinition } from './types.js';

/**
 * What resume does with a paused batch's write follows what the write log says now, also when
 * the resumed batch pauses again (it keeps what the earlier pause kept) and for a call whose id
 * the redaction at rest changes (its kept answer holds its write key). Found by review.
 */

const clock = testClock;

function harnessOf(pay: ToolDefinition, refund: ToolDefinition, timeouts = true): Harness {
  return {
    name: 'desk',
    tools: [pay, refund],
    system: () => 'You are a test agent.',
    timeouts,
    permissions: {
      rules: [],
      decide: (tool) =>
        tool === 'refund'
          ? { effect: 'ask', rule: undefined, reason: 'refunds need a human' }
          : { effect: 'allow', rule: undefined, reason: 'fine' },
    },
    limits: { maxSteps: 5 },
  };
}

describe('a human resolving a timed-out write of a paused batch', () => {
  it('retry runs it, for a call whose id the redaction at rest changes', async () => {
    const { payment, resume, key } = await pausedAfterTimeout('call-4111111111111111');
    await resume({ approvals: true, resolveWrites: { [key]: 'retry' } }).resumed;
    expect(payment.executions()).toBe(2);
  });

  it('done answers it as made, for a call whose id the redaction at rest changes', async () => {
    const { resume, key } = await pausedAfterTimeout('call-4111111111111111');
    const { model, resumed } = resume({ approvals: true, resolveWrites: { [key]: 'done' } });
    await resumed;
    expect(toolResults(model.requests[0]!)[0]?.content).toMatch(/already made earlier/);
  });

  it('retry runs it after the resumed batch paused again', async () => {
    const { payment, resume, key } = await pausedAfterTimeout('toolu_pay');
    // No approvals: the refund is deferred again, and the batch pauses a second time.
    expect((await resume({}).resumed).status).toBe('awaiting_approval');
    const result = await resume({ approvals: true, resolveWrites: { [key]: 'retry' } }).resumed;
    expect(payment.executions()).toBe(2);
    expect(result.unresolvedWrites).toBeUndefined();
  });
});

describe('a resumed batch that pauses again', () => {
  it('does not run a write of unknown outcome whose log was lost', async () => {
    const run = new AbortController();
    let deferred = () => {};
    const refundDeferred = new Promise<void>((resolve) => {
      deferred = resolve;
    });
    const executed: number[] = [];
    const pay = defineTool({
      name: 'pay',
      description: 'Pay',
      effect: 'write',
      parameters: z.object({ amount: z.number() }),
      execute: async ({ amount }, { signal }) => {
        executed.push(amount);
        if (executed.length === 1) {
          await refundDeferred;
          await new Promise(setImmediate);
          run.abort(new Error('Ctrl-C'));
          if (signal.aborted) throw new Error('connection reset');
        }
        return `paid ${amount}`;
      },
    }) as ToolDefinition;
    const refund = refundTool();
    const harness = harnessOf(pay, refund.tool, false);
    const store = createMemoryCheckpointStore();
    let lost = false;
    const checkpoints: CheckpointStore = {
      ...store,
      loadWrites: async (id) => (lost ? [] : store.loadWrites(id)),
    };
    const first = await runAgent({
      harness,
      model: createScriptedModel([
        toolTurn([
          { name: 'pay', input: { amount: 5 }, id: 'toolu_pay' },
          { name: 'refund', input: { order_id: 'ORD1' }, id: 'toolu_refund' },
        ]),
      ]),
      modelId: 'scripted',
      prompt: 'pay 5 and refund ORD1',
      clock: clock(),
      mode: 'interactive',
      approver: async () => {
        deferred();
        return 'defer';
      },
      runId: 'run',
      checkpoints,
      signal: run.signal,
    });
    expect(first.unresolvedWrites).toHaveLength(1);
    lost = true;
    const again = await resumeAgent({
      runId: 'run',
      checkpoints,
      harness,
      model: createScriptedModel([]),
      clock: clock(),
    });
    expect(again.status).toBe('awaiting_approval');
    const last = await resumeAgent({
      runId: 'run',
      checkpoints,
      harness,
      model: createScriptedModel([textTurn('A human will check the payment.')]),
      clock: clock(),
      approvals: true,
    });
    expect(executed).toEqual([5]);
    expect(last.toolCalls.filter((call) => call.tool === 'pay').at(-1)?.decision).toBe(
      'outcome_unknown',
    );
  });

  it('does not run the write of a v1 checkpoint that its tool said did not take effect', async () => {
    const { payment, resume, checkpoints } = await pausedAfterTimeout('toolu_pay');
    const v1 = structuredClone((await checkpoints.load('run'))!);
    (v1 as { version: number }).version = 1;
    delete v1.pendingApproval!.notMade;
    await checkpoints.save(v1);
    payment.outcome.late = () => new WriteNotMadeError('never sent');
    payment.settle();
    for (let turn = 0; turn < 3; turn += 1) await new Promise(setImmediate);
    expect((await resume({}).resumed).status).toBe('awaiting_approval');
    await resume({ approvals: true }).resumed;
    expect(payment.executions()).toBe(1);
  });
});
