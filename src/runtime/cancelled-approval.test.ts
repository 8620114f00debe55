import { describe, expect, it, vi } from 'vitest';
import { createVirtualClock } from '../core/clock.js';
import { createMemoryCheckpointStore } from './checkpoint-store.js';
import type { Harness } from './harness.js';
import { createWriteLog } from './idempotency.js';
import { createToolPipeline } from './pipeline.js';
import { resumeAgent } from './resume-agent.js';
import { runAgent } from './run-agent.js';
import { createScriptedModel, textTurn, toolTurn } from './scripted-model.js';
import { heldLookup } from './testing/held-tool.js';
import { testRunState } from './testing/run-state.js';
import { chargeTool } from './testing/write-tools.js';
import type { ApprovalAnswer, ApprovalContext, Approver, ToolCall } from './types.js';

/**
 * A human is not asked about a call of a run that is cancelled, and a question open when the
 * run is cancelled is withdrawn: the run does not wait for its answer, and a "yes" that comes
 * later runs nothing.
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

/** Whether the promise has settled, read without waiting for it. */
const watch = (promise: Promise<unknown>) => {
  const state = { settled: false };
  void promise.then(() => {
    state.settled = true;
  });
  return state;
};

describe('the approval step of a cancelled run', () => {
  it('does not ask about a call the run was cancelled before: decision cancelled', async () => {
    const run = new AbortController();
    run.abort(new Error('the user pressed Ctrl-C'));
    const { tool, executed } = chargeTool();
    const approver = vi.fn<Approver>(async () => true);
    const pipeline = createToolPipeline({
      tools: [tool],
      permissions: ask,
      approver,
      signal: run.signal,
    });
    const outcome = await pipeline.run(charge(5), testRunState({ mode: 'interactive' }));
    expect(approver).not.toHaveBeenCalled();
    expect(outcome.record.decision).toBe('cancelled');
    expect(outcome.result.content).toMatch(/^charge was not run: the run was cancelled/);
    expect(executed).toEqual([]);
  });

  it('does not ask about the calls of a batch when the run is cancelled while it runs', async () => {
    const run = new AbortController();
    const { tool, executed } = chargeTool();
    const approver = vi.fn<Approver>(async () => true);
    const harness: Harness = {
      name: 'charge-desk',
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
      permissions: { rules: [], ...ask },
      limits: { maxSteps: 5 },
    };
    const result = await runAgent({
      harness,
      model: createScriptedModel([toolTurn([charge(5), charge(7)])]),
      modelId: 'scripted',
      prompt: 'charge twice',
      clock: clock(),
      mode: 'interactive',
      approver,
      signal: run.signal,
    });
    expect(approver).not.toHaveBeenCalled();
    expect(result.status).toBe('error');
    expect(result.toolCalls.map((call) => call.decision)).toEqual(['cancelled', 'cancelled']);
    expect(executed).toEqual([]);
  });

  it('stops waiting for an open question when the run is cancelled', async () => {
    const run = new AbortController();
    const { tool, executed } = chargeTool();
    const held = heldApprover();
    const pipeline = createToolPipeline({
      tools: [tool],
      permissions: ask,
      approver: held.approver,
      signal: run.signal,
    });
    const running = pipeline.run(charge(5), testRunState({ mode: 'interactive' }));
    const state = watch(running);
    await vi.waitFor(() => expect(held.asked).toHaveLength(1));
    run.abort(new Error('the user pressed Ctrl-C'));
    for (let turns = 0; turns < 3; turns += 1) await turn();
    expect(state.settled).toBe(true);
    const outcome = await running;
    expect(outcome.record.decision).toBe('cancelled');
    expect(outcome.result.content).toMatch(/^charge was not run: the run was cancelled/);
    expect(executed).toEqual([]);
  });

  it('runs nothing on a yes to the withdrawn question that comes while the batch still runs', async () => {
    const run = new AbortController();
    const { tool, executed } = chargeTool();
    const lookup = heldLookup();
    const writes = createWriteLog([], async () => {});
    const held = heldApprover();
    const pipeline = createToolPipeline({
      tools: [tool, lookup.tool],
      permissions: { decide: (name) => (name === 'charge' ? ask.decide() : allow) },
      approver: held.approver,
      writes,
      signal: run.signal,
    });
    lookup.hold();
    const lookupCall = { id: 'call-l', name: 'lookup', input: {} };
    const running = pipeline.runAll([charge(5), lookupCall], testRunState({ mode: 'interactive' }));
    await vi.waitFor(() => expect(held.asked).toHaveLength(1));
    run.abort(new Error('the user pressed Ctrl-C'));
    await turn();
    // Its human answers yes (an approver that ignores its signal keeps showing the question).
    held.answers[0]?.(true);
    for (let turns = 0; turns < 3; turns += 1) await turn();
    lookup.release();
    const outcomes = await running;
    expect(outcomes.map((outcome) => outcome.record.decision)).toEqual(['cancelled', 'allow']);
    expect(executed).toEqual([]);
    expect(writes.list()).toEqual([]);
    expect(writes.unresolvedList()).toEqual([]);
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
    const answered = pipeline.run(charge(5), state);
    await vi.waitFor(() => expect(held.asked).toHaveLength(1));
    held.answers[0]?.(false);
    expect((await answered).record.decision).toBe('ask_denied');

    const open = pipeline.run(charge(7), state);
    await vi.waitFor(() => expect(held.asked).toHaveLength(2));
    const reason = new Error('the user pressed Ctrl-C');
    run.abort(reason);
    expect((await open).record.decision).toBe('cancelled');
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
    const running = pipeline.run(charge(5), testRunState({ mode: 'interactive' }));
    await vi.waitFor(() => expect(held.asked).toHaveLength(1));
    expect(held.asked[0]?.approval?.signal.aborted).toBe(false);
    held.answers[0]?.(true);
    expect((await running).record.decision).toBe('ask_approved');
  });
});

describe('a paused batch resumed by a cancelled run', () => {
  /** Pauses a batch of two charges: the 5 declined before the pause, the 7 waiting for a human. */
  async function pausedBatch() {
    const { tool, executed } = chargeTool();
    const harness: Harness = {
      name: 'charge-desk',
      tools: [tool],
      system: () => 'You are a test agent.',
      permissions: { rules: [], ...ask },
      limits: { maxSteps: 5 },
    };
    const checkpoints = createMemoryCheckpointStore();
    const paused = await runAgent({
      harness,
      model: createScriptedModel([toolTurn([charge(5), charge(7)])]),
      modelId: 'scripted',
      prompt: 'charge twice',
      clock: clock(),
      mode: 'interactive',
      approver: async (call) => ((call.input as { amount: number }).amount === 5 ? false : 'defer'),
      runId: 'r',
      checkpoints,
    });
    expect(paused.status).toBe('awaiting_approval');
    const kept = { 'call-5': false };
    expect((await checkpoints.load('r'))?.pendingApproval?.answers).toEqual(kept);
    return { harness, executed, checkpoints, kept };
  }

  it('does not ask about the undecided call, and keeps the batch paused with its answers', async () => {
    const { harness, executed, checkpoints, kept } = await pausedBatch();
    const run = new AbortController();
    run.abort(new Error('the user pressed Ctrl-C'));
    const approver = vi.fn<Approver>(async () => true);
    const result = await resumeAgent({
      runId: 'r',
      checkpoints,
      harness,
      model: createScriptedModel([]),
      clock: clock(),
      approver,
      signal: run.signal,
    });
    expect(approver).not.toHaveBeenCalled();
    expect(result.status).toBe('error');
    expect(executed).toEqual([]);
    const stored = await checkpoints.load('r');
    expect(stored?.state).toBe('awaiting_approval');
    expect(stored?.pendingApproval?.answers).toEqual(kept);
  });

  it('stops waiting for its open question when cancelled, and asks it again on the next resume', async () => {
    const { harness, executed, checkpoints, kept } = await pausedBatch();
    const run = new AbortController();
    const held = heldApprover();
    const resumed = resumeAgent({
      runId: 'r',
      checkpoints,
      harness,
      model: createScriptedModel([]),
      clock: clock(),
      approver: held.approver,
      signal: run.signal,
    });
    const state = watch(resumed);
    await vi.waitFor(() => expect(held.asked).toHaveLength(1));
    expect(held.asked[0]?.call.id).toBe('call-7');
    run.abort(new Error('the user pressed Ctrl-C'));
    await vi.waitFor(() => expect(state.settled).toBe(true), { timeout: 20_000, interval: 5 });
    const result = await resumed;
    expect(result.status).toBe('error');
    expect(result.detail).toMatch(/^the run was cancelled while its tool calls ran/);
    expect(executed).toEqual([]);
    const stored = await checkpoints.load('r');
    expect(stored?.state).toBe('awaiting_approval');
    expect(stored?.pendingApproval?.answers).toEqual(kept);

    // The next resume asks again; the kept "no" stays a no.
    const approver = vi.fn<Approver>(async () => true);
    const model = createScriptedModel([textTurn('charged 7')]);
    const again = await resumeAgent({
      runId: 'r',
      checkpoints,
      harness,
      model,
      clock: clock(),
      approver,
    });
    expect(again.status).toBe('done');
    expect(approver).toHaveBeenCalledTimes(1);
    expect(executed).toEqual([7]);
    expect(again.toolCalls.map((call) => call.decision)).toEqual(['ask_denied', 'ask_approved']);
    model.assertDone();
  });

  it('does not keep a yes to its withdrawn question that comes while another call still runs', async () => {
    const { tool, executed } = chargeTool();
    const lookup = heldLookup();
    const harness: Harness = {
      name: 'charge-desk',
      tools: [tool, lookup.tool],
      system: () => 'You are a test agent.',
      permissions: {
        rules: [],
        decide: (name) => (name === 'charge' ? ask.decide() : allow),
      },
      limits: { maxSteps: 5 },
    };
    const checkpoints = createMemoryCheckpointStore();
    const paused = await runAgent({
      harness,
      model: createScriptedModel([
        toolTurn([charge(7), { id: 'call-l', name: 'lookup', input: {} }]),
      ]),
      modelId: 'scripted',
      prompt: 'charge 7',
      clock: clock(),
      mode: 'interactive',
      approver: async () => 'defer',
      runId: 'r',
      checkpoints,
    });
    expect(paused.status).toBe('awaiting_approval');

    lookup.hold();
    const run = new AbortController();
    const held = heldApprover();
    const resumed = resumeAgent({
      runId: 'r',
      checkpoints,
      harness,
      model: createScriptedModel([]),
      clock: clock(),
      approver: held.approver,
      signal: run.signal,
    });
    await vi.waitFor(() => expect(held.asked).toHaveLength(1));
    run.abort(new Error('the user pressed Ctrl-C'));
    await turn();
    // Its human answers yes while the lookup still runs (the approver ignores its signal).
    held.answers[0]?.(true);
    await turn();
    lookup.release();
    expect((await resumed).status).toBe('error');
    expect(executed).toEqual([]);
    const stored = await checkpoints.load('r');
    expect(stored?.pendingApproval?.answers).toEqual({});

    // The next resume has no one to ask and no --approve: the batch stays paused, nothing runs.
    const again = await resumeAgent({
      runId: 'r',
      checkpoints,
      harness,
      model: createScriptedModel([]),
      clock: clock(),
    });
    expect(again.status).toBe('awaiting_approval');
    expect(executed).toEqual([]);
  });
});
