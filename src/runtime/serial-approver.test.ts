import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createVirtualClock } from '../core/clock.js';
import { createScriptedModel, textTurn, toolTurn } from '../simulator/scripted-model.js';
import { defineTool } from './define-tool.js';
import type { Harness } from './harness.js';
import { createMemoryJournalStore } from './journal/journal-store.js';
import { createPermissionPolicy, parseRule } from './permissions.js';
import { resumeAgent } from './resume-agent.js';
import { runAgent } from './run-agent.js';
import { serialApprover } from './serial-approver.js';
import { createMemoryTrace } from './trace.js';
import type { ApprovalAnswer, Approver } from './types.js';

/** An approver that answers only when the test says so, and counts questions in flight. */
function heldApprover() {
  const asked: string[] = [];
  const answers: Array<(answer: ApprovalAnswer) => void> = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const approver: Approver = (call) => {
    asked.push(String((call.input as { order: string }).order));
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    return new Promise((resolve) =>
      answers.push((answer) => {
        inFlight -= 1;
        resolve(answer);
      }),
    );
  };
  return { approver, asked, answers, mostInFlight: () => mostInFlight };
}

const turn = () => new Promise(setImmediate);

describe('serialApprover', () => {
  it('asks the next question only after the previous one was answered', async () => {
    const held = heldApprover();
    const approve = serialApprover(held.approver);
    const call = (order: string) => ({ id: order, name: 'refund', input: { order } });
    const first = approve(call('A'), 'a write');
    const second = approve(call('B'), 'a write');
    await turn();
    expect(held.asked).toEqual(['A']);
    held.answers[0]?.(true);
    await turn();
    expect(held.asked).toEqual(['A', 'B']);
    held.answers[1]?.(false);
    expect([await first, await second]).toEqual([true, false]);
  });

  it('goes on with the next question when an approver throws', async () => {
    let calls = 0;
    const approve = serialApprover(async () => {
      calls += 1;
      if (calls === 1) throw new Error('terminal gone');
      return 'defer';
    });
    const call = { id: 'a', name: 'refund', input: {} };
    const [first, second] = await Promise.allSettled([approve(call, 'r'), approve(call, 'r')]);
    expect(first).toMatchObject({ status: 'rejected' });
    expect(second).toEqual({ status: 'fulfilled', value: 'defer' });
  });

  it('does not ask a question that waited its turn once its signal aborted: it answers later', async () => {
    const held = heldApprover();
    const approve = serialApprover(held.approver);
    const call = (order: string) => ({ id: order, name: 'refund', input: { order } });
    const run = new AbortController();
    const first = approve(call('A'), 'a write', { signal: run.signal });
    const second = approve(call('B'), 'a write', { signal: run.signal });
    await turn();
    run.abort(new Error('the user pressed Ctrl-C'));
    // The open question's approver hears the cancel itself; once it ends, the next is not asked.
    held.answers[0]?.('defer');
    expect(await first).toBe('defer');
    expect(await second).toBe('defer');
    expect(held.asked).toEqual(['A']);
    // A question without a cancelled signal is asked as before.
    const third = approve(call('C'), 'a write', { signal: new AbortController().signal });
    await turn();
    held.answers[1]?.(true);
    expect(await third).toBe(true);
    expect(held.asked).toEqual(['A', 'C']);
  });

  it("hands the approver each question's own signal", async () => {
    const signals: Array<AbortSignal | undefined> = [];
    const approve = serialApprover(async (_call, _reason, approval) => {
      signals.push(approval?.signal);
      return true;
    });
    const signal = new AbortController().signal;
    await approve({ id: 'a', name: 'refund', input: {} }, 'r', { signal });
    expect(signals).toEqual([signal]);
  });
});

describe('runAgent with an approver', () => {
  const executed: string[] = [];
  const refund = defineTool({
    name: 'refund',
    description: 'Refund an order',
    effect: 'write',
    parameters: z.object({ order: z.string() }),
    execute: ({ order }) => {
      executed.push(order);
      return 'ok';
    },
  });
  const harness: Harness = {
    name: 'test',
    tools: [refund],
    system: () => 'test',
    validate: true,
    permissions: createPermissionPolicy([parseRule('refund', 'ask', 'a refund is a write')]),
    limits: { maxSteps: 5 },
  };

  it('never has two approvals of one turn open at once', async () => {
    executed.length = 0;
    const held = heldApprover();
    const model = createScriptedModel([
      toolTurn([
        { name: 'refund', input: { order: 'A' } },
        { name: 'refund', input: { order: 'B' } },
      ]),
      textTurn('done'),
    ]);
    const running = runAgent({
      harness,
      model,
      modelId: 'test-model',
      prompt: 'refund both',
      clock: createVirtualClock({ start: 0 }),
      mode: 'interactive',
      approver: held.approver,
      trace: createMemoryTrace(),
    });
    while (held.asked.length === 0) await turn();
    await turn();
    expect(held.asked).toEqual(['A']);
    held.answers[0]?.(true);
    while (held.asked.length < 2) await turn();
    held.answers[1]?.(false);
    const result = await running;
    expect(result.status).toBe('done');
    expect(held.mostInFlight()).toBe(1);
    expect(executed).toEqual(['A']);
  });

  it('keeps no answer of a run cancelled while one question is open and one waits: the resumed run asks both', async () => {
    executed.length = 0;
    const journals = createMemoryJournalStore();
    const controller = new AbortController();
    const held = heldApprover();
    const running = runAgent({
      harness,
      model: createScriptedModel([
        toolTurn([
          { name: 'refund', input: { order: 'A' } },
          { name: 'refund', input: { order: 'B' } },
        ]),
      ]),
      modelId: 'test-model',
      prompt: 'refund both',
      clock: createVirtualClock({ start: 0 }),
      mode: 'interactive',
      approver: held.approver,
      runId: 'run-1',
      journals,
      signal: controller.signal,
    });
    while (held.asked.length === 0) await turn();
    controller.abort(new Error('the user pressed Ctrl-C'));
    // The human says yes to A after the cancel: the answer is not kept, B is never asked.
    held.answers[0]?.(true);
    const cancelled = await running;
    expect(cancelled.status).toBe('error');
    expect(cancelled.pendingApprovals).toBeUndefined();
    expect(held.asked).toEqual(['A']);
    expect(executed).toEqual([]);

    const asked: string[] = [];
    const resumed = await resumeAgent({
      runId: 'run-1',
      journals,
      harness,
      model: createScriptedModel([textTurn('done')]),
      clock: createVirtualClock({ start: 0 }),
      approver: async (call) => {
        asked.push(String((call.input as { order: string }).order));
        return true;
      },
    });
    expect(resumed.status).toBe('done');
    expect(asked).toEqual(['A', 'B']);
    expect(executed).toEqual(['A', 'B']);
  });
});
