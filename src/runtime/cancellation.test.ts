import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createVirtualClock } from '../core/clock.js';
import { createScriptedModel, textTurn, toolTurn } from '../simulator/scripted-model.js';
import { defineTool } from './define-tool.js';
import type { Harness } from './harness.js';
import { createMemoryJournalStore } from './journal/journal-store.js';
import type { JournalRecord } from './journal/records.js';
import { createToolPipeline, type ToolOutcome } from './pipeline.js';
import { resumeAgent } from './resume-agent.js';
import { runAgent } from './run-agent.js';
import { durablePipeline } from './testing/durable-pipeline.js';
import { heldLookup } from './testing/held-tool.js';
import { testRunState } from './testing/run-state.js';
import { chargeTool } from './testing/write-tools.js';
import type {
  ApprovalAnswer,
  ApprovalContext,
  Approver,
  ToolCall,
  ToolDefinition,
} from './types.js';

/**
 * A run that is cancelled (its signal aborts) asks no one and starts nothing more. A call it
 * stops before it ran, or cuts off so that it did nothing, gets no result: a resumed run runs
 * it, so its transcript is the uninterrupted one. A question open at the cancel is withdrawn:
 * the run does not wait for it, and a "yes" that comes later is not kept.
 */

const clock = () => createVirtualClock({ start: Date.parse('2026-10-01T09:00:00Z') });
const ask = {
  decide: () => ({ effect: 'ask' as const, rule: undefined, reason: 'charges need a human' }),
};
const allow = { effect: 'allow' as const, rule: undefined, reason: 'reads are fine' };
const charge = (amount: number, id = `call-${amount}`): ToolCall => ({
  id,
  name: 'charge',
  input: { amount },
});
const turn = () => new Promise(setImmediate);
const decision = (outcome: ToolOutcome) =>
  outcome.kind === 'result' ? outcome.record.decision : outcome.kind;

/** An approver that answers only when the test says so, and keeps what it was handed. */
function heldApprover() {
  const asked: Array<{ call: ToolCall; approval: ApprovalContext | undefined }> = [];
  const answers: Array<(answer: ApprovalAnswer) => void> = [];
  const approver: Approver = (call, _reason, approval) => {
    asked.push({ call, approval });
    return new Promise((resolve) => answers.push(resolve));
  };
  return { approver, asked, answers };
}

describe('a call of a cancelled run', () => {
  it('is not run, and not asked about, once the run is cancelled: no result', async () => {
    const run = new AbortController();
    run.abort(new Error('Ctrl-C'));
    const { tool, executed } = chargeTool();
    const held = heldApprover();
    const pipeline = createToolPipeline({
      tools: [tool],
      permissions: ask,
      approver: held.approver,
      signal: run.signal,
    });
    expect(decision(await pipeline.run(charge(5), testRunState({ mode: 'interactive' }), 0))).toBe(
      'not_run',
    );
    expect(held.asked).toEqual([]);
    expect(executed).toEqual([]);
  });

  it('stops waiting for an open question at the cancel, and keeps no yes that comes after it', async () => {
    const run = new AbortController();
    const { tool, executed } = chargeTool();
    const lookup = heldLookup();
    const held = heldApprover();
    const desk = await durablePipeline({
      tools: [tool, lookup.tool],
      permissions: { decide: (name) => (name === 'charge' ? ask.decide() : allow) },
      approver: held.approver,
      signal: run.signal,
    });
    lookup.hold();
    const running = desk.call(charge(5));
    await vi.waitFor(() => expect(held.asked).toHaveLength(1));
    run.abort(new Error('the user pressed Ctrl-C'));
    expect(decision(await running)).toBe('not_run');
    // Its human answers yes anyway (an approver that ignores its signal keeps showing it).
    held.answers[0]?.(true);
    for (let turns = 0; turns < 3; turns += 1) await turn();
    expect(executed).toEqual([]);
    expect(desk.journal.view.open?.approvals).toEqual([]);
    expect(desk.journal.view.open?.results).toEqual([]);
  });

  it("hands the approver a signal that aborts with the run's reason, and only for its question", async () => {
    const run = new AbortController();
    const { tool } = chargeTool();
    const held = heldApprover();
    const pipeline = createToolPipeline({
      tools: [tool],
      permissions: ask,
      approver: held.approver,
      signal: run.signal,
    });
    const state = testRunState({ mode: 'interactive' });
    const answered = pipeline.run(charge(5), state, 0);
    await vi.waitFor(() => expect(held.asked).toHaveLength(1));
    held.answers[0]?.(false);
    expect(decision(await answered)).toBe('ask_denied');
    const open = pipeline.run(charge(7), state, 1);
    await vi.waitFor(() => expect(held.asked).toHaveLength(2));
    const reason = new Error('the user pressed Ctrl-C');
    run.abort(reason);
    expect(decision(await open)).toBe('not_run');
    const [first, second] = held.asked.map(({ approval }) => approval?.signal);
    expect(second?.aborted).toBe(true);
    expect(second?.reason).toBe(reason);
    // The question already answered is not told about the cancel: it was over.
    expect(first?.aborted).toBe(false);
  });

  it('hands the approver a signal that never aborts in a run without one', async () => {
    const { tool } = chargeTool();
    const held = heldApprover();
    const pipeline = createToolPipeline({
      tools: [tool],
      permissions: ask,
      approver: held.approver,
    });
    const running = pipeline.run(charge(5), testRunState({ mode: 'interactive' }), 0);
    await vi.waitFor(() => expect(held.asked).toHaveLength(1));
    expect(held.asked[0]?.approval?.signal.aborted).toBe(false);
    held.answers[0]?.(true);
    expect(decision(await running)).toBe('ask_approved');
  });
});

describe('a run cancelled while its tool calls run', () => {
  it('ends resumable (not a failure streak); the resumed run keeps the results it had and runs the rest once', async () => {
    const run = new AbortController();
    const { tool, executed } = chargeTool();
    let waits = 0;
    // A read that the cancel cuts off (it fails on its signal), and answers at once the next time.
    const wait = defineTool({
      name: 'lookup',
      description: 'Look up, slowly',
      effect: 'read',
      parameters: z.object({}),
      execute: async (_args, { signal }) => {
        waits += 1;
        if (waits > 1) return 'looked up';
        await new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason)),
        );
        return 'never';
      },
    }) as ToolDefinition;
    const harness: Harness = {
      name: 'desk',
      tools: [tool, wait],
      system: () => 'desk',
      limits: { maxSteps: 5, failureStreak: 1 },
    };
    const journals = createMemoryJournalStore();
    const turns = [
      toolTurn([
        { name: 'charge', input: { amount: 5 }, id: 'toolu_charge' },
        { name: 'lookup', input: {}, id: 'toolu_lookup' },
      ]),
      textTurn('Charged and looked up.'),
    ];
    const running = runAgent({
      harness,
      model: createScriptedModel(turns.slice(0, 1)),
      modelId: 'm',
      prompt: 'charge 5',
      clock: clock(),
      mode: 'unattended',
      signal: run.signal,
      runId: 'run',
      journals,
    });
    await vi.waitFor(() => expect(executed).toEqual([5]));
    run.abort(new Error('the user pressed Ctrl-C'));
    const cancelled = await running;
    expect(cancelled).toMatchObject({
      status: 'error',
      detail: 'the run was cancelled while its tool calls ran: the user pressed Ctrl-C',
    });
    const records = journals.texts
      .get('run')!
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as JournalRecord);
    // The charge finished and keeps its result; the lookup was cut off and has none.
    expect(
      records
        .filter((record) => record.type === 'result')
        .map((record) => record.type === 'result' && record.index),
    ).toEqual([0]);

    const model = createScriptedModel(turns.slice(1));
    const resumed = await resumeAgent({ runId: 'run', journals, harness, model, clock: clock() });
    model.assertDone();
    expect(resumed.status).toBe('done');
    expect(executed).toEqual([5]);
    expect(waits).toBe(2);
    expect(resumed.toolCalls.map((call) => [call.tool, call.decision])).toEqual([
      ['charge', 'allow'],
      ['lookup', 'allow'],
    ]);
  });
});
