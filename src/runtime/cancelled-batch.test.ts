import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createVirtualClock } from '../core/clock.js';
import { type CheckpointStore, createMemoryCheckpointStore } from './checkpoint-store.js';
import { defineTool } from './define-tool.js';
import type { Harness } from './harness.js';
import { blockRepeatedCall } from './hooks/block-repeated-call.js';
import { resumeAgent } from './resume-agent.js';
import { runAgent } from './run-agent.js';
import { createScriptedModel, textTurn, toolTurn } from './scripted-model.js';
import { heldLookup } from './testing/held-tool.js';
import { chargeTool } from './testing/write-tools.js';
import type { ApprovalAnswer, Approver, ToolDefinition } from './types.js';

/**
 * A run cancelled while its tool calls run ends as a cancelled model call does: failed and
 * resumable. Its `cancelled` calls never ran, so they neither trip a stop rule nor stand in the
 * way of running them when the run goes on.
 */

const clock = () => createVirtualClock({ start: Date.parse('2026-10-01T09:00:00Z') });

function lookupTool() {
  const looked: string[] = [];
  // A read that ignores its signal, as most do.
  const tool = defineTool({
    name: 'lookup',
    description: 'Look an order up',
    effect: 'read',
    parameters: z.object({ id: z.string() }),
    execute: async ({ id }) => {
      looked.push(id);
      return `order ${id}`;
    },
  }) as ToolDefinition;
  return { tool, looked };
}

/** A memory store that calls `onIntent` as each write intent is appended, before it is kept. */
function storeWatchingIntents(onIntent: (input: unknown) => void | Promise<void>) {
  const store = createMemoryCheckpointStore();
  const checkpoints: CheckpointStore = {
    ...store,
    async appendWrite(runId, entry) {
      if ('kind' in entry && entry.kind === 'intent') await onIntent(entry.input);
      return store.appendWrite(runId, entry);
    },
  };
  return checkpoints;
}

describe('a run cancelled during a batch of tool calls', () => {
  it('ends resumable, not as a failure streak, and resuming goes on', async () => {
    const run = new AbortController();
    const { tool, looked } = lookupTool();
    const harness: Harness = {
      name: 'lookup-desk',
      tools: [tool],
      system: () => 'You are a test agent.',
      hooks: {
        preToolUse: [
          async () => {
            run.abort(new Error('the user pressed Ctrl-C'));
            return undefined;
          },
        ],
      },
      limits: { maxSteps: 5, failureStreak: 3 },
    };
    const checkpoints = createMemoryCheckpointStore();
    const reads = ['1', '2', '3'].map((id) => ({ name: 'lookup', input: { id } }));
    const first = await runAgent({
      harness,
      model: createScriptedModel([toolTurn(reads)]),
      modelId: 'scripted',
      prompt: 'look up three orders',
      clock: clock(),
      mode: 'interactive',
      runId: 'r',
      checkpoints,
      signal: run.signal,
    });
    // As when the model call is cancelled: failed, and its last checkpoint resumable.
    expect(first.status).toBe('error');
    expect(first.detail).toMatch(/^the run was cancelled while its tool calls ran/);
    expect(first.detail).toContain('the user pressed Ctrl-C');
    expect(first.toolCalls.map((call) => call.decision)).toEqual([
      'cancelled',
      'cancelled',
      'cancelled',
    ]);
    expect(looked).toEqual([]);

    const model = createScriptedModel([toolTurn(reads), textTurn('all three are shipped')]);
    const again = await resumeAgent({
      runId: 'r',
      checkpoints,
      harness: { ...harness, hooks: {} },
      model,
      clock: clock(),
    });
    expect(again.status).toBe('done');
    expect(again.answer).toBe('all three are shipped');
    expect(looked).toEqual(['1', '2', '3']);
    model.assertDone();
  });

  it('keeps a paused batch pending with the approval when cancelled while it is settled', async () => {
    const { tool, executed } = chargeTool();
    const harness: Harness = {
      name: 'charge-desk',
      tools: [tool],
      system: () => 'You are a test agent.',
      // As the refund desk's upgraded variant: a repeated call is denied.
      hooks: { preToolUse: [blockRepeatedCall()] },
      permissions: {
        rules: [],
        decide: () => ({ effect: 'ask', rule: undefined, reason: 'charges need a human' }),
      },
      limits: { maxSteps: 5 },
    };
    const run = new AbortController();
    // The run is cancelled once the human approved, as the charge's intent is logged.
    const checkpoints = storeWatchingIntents(() => run.abort(new Error('the user pressed Ctrl-C')));
    const paused = await runAgent({
      harness,
      model: createScriptedModel([toolTurn([{ name: 'charge', input: { amount: 5 } }])]),
      modelId: 'scripted',
      prompt: 'charge',
      clock: clock(),
      mode: 'interactive',
      approver: async () => 'defer',
      runId: 'r',
      checkpoints,
    });
    expect(paused.status).toBe('awaiting_approval');
    const id = paused.pendingApprovals?.[0]?.id ?? '';

    // The human approves, and the run is cancelled before the charge starts.
    const cancelled = await resumeAgent({
      runId: 'r',
      checkpoints,
      harness,
      model: createScriptedModel([]),
      clock: clock(),
      approver: async () => true,
      signal: run.signal,
    });
    expect(cancelled.status).toBe('error');
    expect(cancelled.detail).toMatch(/^the run was cancelled while its tool calls ran/);
    expect(executed).toEqual([]);
    expect((await checkpoints.load('r'))?.pendingApproval?.answers).toEqual({ [id]: true });

    // Resumed without anyone to ask: the kept approval runs the charge, once.
    const model = createScriptedModel([textTurn('charged')]);
    const resumed = await resumeAgent({ runId: 'r', checkpoints, harness, model, clock: clock() });
    expect(resumed.status).toBe('done');
    expect(executed).toEqual([5]);
    expect(resumed.toolCalls.map((call) => call.decision)).toEqual(['ask_approved']);
    model.assertDone();
  });

  it('makes a write of the kept batch once: the one made before the cancel comes from the log', async () => {
    const run = new AbortController();
    let charged5 = () => {};
    const fiveCharged = new Promise<void>((resolve) => {
      charged5 = resolve;
    });
    // The user presses Ctrl-C once the first charge went through.
    const { tool: charge, executed } = chargeTool(() => {
      run.abort(new Error('the user pressed Ctrl-C'));
      charged5();
    });
    const harness: Harness = {
      name: 'charge-desk',
      tools: [charge],
      system: () => 'You are a test agent.',
      permissions: {
        rules: [],
        decide: () => ({ effect: 'ask', rule: undefined, reason: 'charges need a human' }),
      },
      limits: { maxSteps: 5 },
    };
    let sevenApproved = () => {};
    const approvedSeven = new Promise<void>((resolve) => {
      sevenApproved = resolve;
    });
    // The first charge goes through once the second is approved (a turn later: the answer is
    // kept), and the second starts once the first went through and the run was cancelled.
    const checkpoints = storeWatchingIntents(async (input) => {
      if ((input as { amount: number }).amount === 7) return fiveCharged;
      await approvedSeven;
      await new Promise(setImmediate);
    });
    const charges = [5, 7].map((amount) => ({ name: 'charge', input: { amount } }));
    const paused = await runAgent({
      harness,
      model: createScriptedModel([toolTurn(charges)]),
      modelId: 'scripted',
      prompt: 'charge twice',
      clock: clock(),
      mode: 'interactive',
      approver: async () => 'defer',
      runId: 'r',
      checkpoints,
    });
    expect(paused.status).toBe('awaiting_approval');

    const cancelled = await resumeAgent({
      runId: 'r',
      checkpoints,
      harness,
      model: createScriptedModel([]),
      clock: clock(),
      approver: async (call) => {
        if ((call.input as { amount: number }).amount === 7) sevenApproved();
        return true;
      },
      signal: run.signal,
    });
    expect(cancelled.status).toBe('error');
    expect(executed).toEqual([5]);

    const model = createScriptedModel([textTurn('charged both')]);
    const resumed = await resumeAgent({ runId: 'r', checkpoints, harness, model, clock: clock() });
    expect(resumed.status).toBe('done');
    expect(executed).toEqual([5, 7]);
    expect(resumed.writes?.map((write) => write.input)).toEqual([{ amount: 5 }, { amount: 7 }]);
    model.assertDone();
  });

  it('ends in error, resumable, when cancelled while one call is deferred and another asked', async () => {
    const { tool, executed } = chargeTool();
    const lookup = heldLookup();
    const harness: Harness = {
      name: 'charge-desk',
      tools: [tool, lookup.tool],
      system: () => 'You are a test agent.',
      permissions: {
        rules: [],
        decide: (name) =>
          name === 'charge'
            ? { effect: 'ask', rule: undefined, reason: 'charges need a human' }
            : { effect: 'allow', rule: undefined, reason: 'reads are fine' },
      },
      limits: { maxSteps: 5 },
    };
    const run = new AbortController();
    const open: Array<(answer: ApprovalAnswer) => void> = [];
    // The 5 waits for a human (later); the 7 is asked, and its human is slow.
    const approver: Approver = (call) =>
      (call.input as { amount: number }).amount === 5
        ? Promise.resolve('defer')
        : new Promise((resolve) => open.push(resolve));
    const checkpoints = createMemoryCheckpointStore();
    const calls = [
      { name: 'charge', input: { amount: 5 }, id: 'call-5' },
      { name: 'charge', input: { amount: 7 }, id: 'call-7' },
      { name: 'lookup', input: {}, id: 'call-l' },
    ];
    lookup.hold();
    const running = runAgent({
      harness,
      model: createScriptedModel([toolTurn(calls)]),
      modelId: 'scripted',
      prompt: 'charge twice',
      clock: clock(),
      mode: 'interactive',
      approver,
      runId: 'r',
      checkpoints,
      signal: run.signal,
    });
    await vi.waitFor(() => expect(open).toHaveLength(1));
    run.abort(new Error('the user pressed Ctrl-C'));
    await new Promise(setImmediate);
    // The withdrawn question's yes, while the lookup still runs, is not kept.
    open[0]?.(true);
    lookup.release();
    const result = await running;
    expect(result.status).toBe('error');
    expect(result.detail).toMatch(/^the run was cancelled while its tool calls ran/);
    expect(executed).toEqual([]);
    const stored = await checkpoints.load('r');
    expect(stored?.state).toBe('awaiting_approval');
    expect(stored?.pendingApproval?.requests.map((request) => request.id)).toEqual(['call-5']);
    expect(stored?.pendingApproval?.answers).toEqual({});

    // Resumed, both charges are asked about: the one deferred and the one withdrawn.
    const asked: string[] = [];
    const model = createScriptedModel([textTurn('charged both')]);
    const resumed = await resumeAgent({
      runId: 'r',
      checkpoints,
      harness,
      model,
      clock: clock(),
      approver: async (call) => {
        asked.push(call.id);
        return true;
      },
    });
    expect(resumed.status).toBe('done');
    expect(asked.sort()).toEqual(['call-5', 'call-7']);
    expect(executed.sort()).toEqual([5, 7]);
    model.assertDone();
  });
});
