import { z } from 'zod';
import { createVirtualClock } from '../../core/clock.js';
import { type CheckpointStore, createMemoryCheckpointStore } from '../checkpoint-store.js';
import { defineTool } from '../define-tool.js';
import type { Harness } from '../harness.js';
import { resumeAgent } from '../resume-agent.js';
import { runAgent } from '../run-agent.js';
import { createScriptedModel, textTurn, toolTurn } from '../scripted-model.js';
import type { ToolDefinition } from '../types.js';
import { refundTool } from './write-tools.js';

export const testClock = () => createVirtualClock({ start: Date.parse('2026-10-01T09:00:00Z') });

/**
 * A payment that waits 10 s on the clock, past its 1 s timeout. The first one ends when the test
 * says (`settle`): it throws `late()` then, or pays when `late` returns nothing. Later ones pay.
 */
export function slowPayment() {
  let executions = 0;
  let settle: () => void = () => {};
  const settled = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const outcome: { late: () => Error | undefined } = { late: () => undefined };
  const tool = defineTool({
    name: 'pay',
    description: 'Send a payment',
    effect: 'write',
    timeoutMs: 1000,
    parameters: z.object({ amount: z.number() }),
    execute: async ({ amount }, { clock }) => {
      executions += 1;
      if (executions > 1) return `paid ${amount}`;
      await clock.sleep(10_000).catch(() => undefined);
      await settled;
      const error = outcome.late();
      if (error) throw error;
      return `paid ${amount}`;
    },
  }) as ToolDefinition;
  return { tool, outcome, settle, executions: () => executions };
}

/**
 * A run whose batch [pay 5 (times out), refund ORD1 (a human must approve)] paused, with
 * checkpoints in memory; `resume` resumes it (see resumer).
 */
export async function pausedAfterTimeout(payId = 'toolu_pay') {
  const payment = slowPayment();
  const refund = refundTool();
  const harness = payDesk(payment.tool, refund.tool);
  const checkpoints = createMemoryCheckpointStore();
  const paused = await runAgent({
    harness,
    model: createScriptedModel([
      toolTurn([
        { name: 'pay', input: { amount: 5 }, id: payId },
        { name: 'refund', input: { order_id: 'ORD1' }, id: 'toolu_refund' },
      ]),
    ]),
    modelId: 'scripted',
    prompt: 'pay 5 and refund ORD1',
    clock: testClock(),
    mode: 'interactive',
    approver: async () => 'defer',
    runId: 'run',
    checkpoints,
  });
  const key = paused.unresolvedWrites?.[0]?.key ?? '';
  return { payment, refund, paused, checkpoints, resume: resumer(harness, checkpoints), key };
}

/**
 * A run whose batch [pay 5, refund ORD1 (a human must approve)] paused while the payment was
 * stopped mid-way by Ctrl-C (an ordinary error: its outcome is unknown). `loseLog` makes the
 * checkpoint store lose the run's write log from then on, as a pruned or deleted file would.
 */
export async function pausedMidway() {
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
  const harness = payDesk(pay, refundTool().tool, false);
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
    clock: testClock(),
    mode: 'interactive',
    approver: async () => {
      deferred();
      return 'defer';
    },
    runId: 'run',
    checkpoints,
    signal: run.signal,
  });
  const loseLog = () => {
    lost = true;
  };
  return { executed, first, loseLog, resume: resumer(harness, checkpoints) };
}

/** A desk with a payment tool (allowed) and a refund tool (a human must approve). */
export function payDesk(pay: ToolDefinition, refund: ToolDefinition, timeouts = true): Harness {
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
          : { effect: 'allow', rule: undefined, reason: 'payments are fine' },
    },
    limits: { maxSteps: 5 },
  };
}

/**
 * Resumes run 'run': with every call approved unless `approvals` is left out (then a call that
 * needs a human is deferred again and the batch pauses again).
 */
function resumer(harness: Harness, checkpoints: CheckpointStore) {
  return (
    options: { approvals?: boolean; resolveWrites?: Record<string, 'done' | 'retry'> } = {
      approvals: true,
    },
  ) => {
    const model = createScriptedModel([textTurn('A human will check the payment.')]);
    const resumed = resumeAgent({
      runId: 'run',
      checkpoints,
      harness,
      model,
      clock: testClock(),
      ...(options.approvals !== undefined && { approvals: options.approvals }),
      ...(options.resolveWrites && { resolveWrites: options.resolveWrites }),
    });
    return { model, resumed };
  };
}

/** The tool results a request sends back (its last message). */
export const toolResults = (request: { messages: Array<{ content: unknown }> }) =>
  request.messages.at(-1)?.content as Array<{ content: string; is_error?: boolean }>;

/** Lets a late outcome settle and be logged (the write log is appended asynchronously). */
export const settleLate = async (settle: () => void) => {
  settle();
  for (let turns = 0; turns < 3; turns += 1) await new Promise(setImmediate);
};
