import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createVirtualClock } from '../core/clock.js';
import { parseCheckpoint } from './checkpoint.js';
import { createMemoryCheckpointStore } from './checkpoint-store.js';
import { defineTool } from './define-tool.js';
import type { Harness } from './harness.js';
import { resumeAgent } from './resume-agent.js';
import { runAgent } from './run-agent.js';
import { createScriptedModel, textTurn, toolTurn } from './scripted-model.js';
import { refundTool } from './testing/write-tools.js';
import type { Hooks, ToolDefinition } from './types.js';

/**
 * A write of a paused batch that ran and threw before the pause did not take effect, so the
 * write log lets it run again. The model never saw that failure: resume runs the batch again,
 * and must answer that call with the same failure instead of running the write a second time.
 */

const clock = () => createVirtualClock({ start: Date.parse('2026-10-01T09:00:00Z') });
// Card-shaped: masked in the checkpoint's values (its calls), not in its keys.
const cardId = 'call-4111111111111111';

/** A charge the provider declines the first time (amount 5 always), then makes. */
function flakyCharge() {
  const executed: number[] = [];
  const tool = defineTool({
    name: 'charge',
    description: 'Charge an amount',
    effect: 'write',
    parameters: z.object({ amount: z.number() }),
    execute: ({ amount }) => {
      executed.push(amount);
      if (amount === 5 || executed.length === 1) throw new Error(`card declined for ${amount}`);
      return `charged ${amount}`;
    },
  }) as ToolDefinition;
  return { tool, executed };
}

function desk(hooks?: Hooks) {
  const charge = flakyCharge();
  const refund = refundTool();
  const harness: Harness = {
    name: 'desk',
    tools: [charge.tool, refund.tool],
    system: () => 'You are a test agent.',
    ...(hooks && { hooks }),
    permissions: {
      rules: [],
      decide: (tool, args) =>
        tool === 'refund' || (args as { amount?: number }).amount === 500
          ? { effect: 'ask', rule: undefined, reason: 'a human decides' }
          : { effect: 'allow', rule: undefined, reason: 'small charges are fine' },
    },
    limits: { maxSteps: 5 },
  };
  return { harness, charged: charge.executed, refunded: refund.executed };
}

function toolResults(request: { messages: Array<{ content: unknown }> }) {
  const content = request.messages.at(-1)?.content;
  return Array.isArray(content) ? (content as Array<{ content: string; is_error?: boolean }>) : [];
}

/** Runs [charge 10 (allowed, declined), refund ORD1 (asks)] until it pauses on the refund. */
async function pausedAfterDecline(chargeId = 'toolu_charge', hooks?: Hooks) {
  const { harness, charged, refunded } = desk(hooks);
  const checkpoints = createMemoryCheckpointStore();
  const paused = await runAgent({
    harness,
    model: createScriptedModel([
      toolTurn([
        { name: 'charge', input: { amount: 10 }, id: chargeId },
        { name: 'refund', input: { order_id: 'ORD1' }, id: 'toolu_refund' },
      ]),
    ]),
    modelId: 'scripted',
    prompt: 'charge 10 and refund ORD1',
    clock: clock(),
    mode: 'interactive',
    approver: async () => 'defer',
    runId: 'run',
    checkpoints,
  });
  expect(paused.status).toBe('awaiting_approval');
  expect(charged).toEqual([10]);
  return { harness, checkpoints, charged, refunded };
}

describe('a resumed paused batch, on a write that threw before the pause', () => {
  it('answers it with the failure it had, without running it again', async () => {
    const { harness, checkpoints, charged, refunded } = await pausedAfterDecline();
    const model = createScriptedModel([textTurn('The charge was declined; ORD1 is refunded.')]);
    const result = await resumeAgent({
      runId: 'run',
      checkpoints,
      harness,
      model,
      clock: clock(),
      approvals: true,
    });
    model.assertDone();
    expect(result.status).toBe('done');
    expect(charged).toEqual([10]);
    expect(refunded).toEqual(['ORD1']);
    const [charge, refund] = toolResults(model.requests[0]!);
    expect(charge).toMatchObject({
      content: 'charge failed: card declined for 10',
      is_error: true,
    });
    expect(refund?.content).toBe('refunded ORD1');
    expect(
      result.toolCalls.map(({ tool, decision, isError }) => ({ tool, decision, isError })),
    ).toEqual([
      { tool: 'charge', decision: 'failed', isError: true },
      { tool: 'refund', decision: 'ask_approved', isError: false },
    ]);
    expect(result.unresolvedWrites).toBeUndefined();
  });

  it('keeps that answer when the batch pauses again, and through a cancelled resume', async () => {
    const run = new AbortController();
    const cancelling = { now: false };
    // Cancels the run as the refund is about to be asked for: the batch stays paused.
    const hooks: Hooks = {
      preToolUse: [
        (call) => {
          if (call.name === 'refund' && cancelling.now) run.abort(new Error('Ctrl-C'));
          return undefined;
        },
      ],
    };
    const { harness, checkpoints, charged, refunded } = await pausedAfterDecline(
      'toolu_charge',
      hooks,
    );
    // Nobody answers: it pauses again.
    const again = await resumeAgent({
      runId: 'run',
      checkpoints,
      harness,
      model: createScriptedModel([]),
      clock: clock(),
    });
    expect(again.status).toBe('awaiting_approval');
    cancelling.now = true;
    const cancelled = await resumeAgent({
      runId: 'run',
      checkpoints,
      harness,
      model: createScriptedModel([]),
      clock: clock(),
      approvals: true,
      signal: run.signal,
    });
    expect(cancelled.status).toBe('error');
    expect((await checkpoints.load('run'))?.state).toBe('awaiting_approval');
    cancelling.now = false;

    const model = createScriptedModel([textTurn('ok')]);
    const result = await resumeAgent({
      runId: 'run',
      checkpoints,
      harness,
      model,
      clock: clock(),
      approvals: true,
    });
    expect(result.status).toBe('done');
    expect(charged).toEqual([10]);
    expect(refunded).toEqual(['ORD1']);
    expect(toolResults(model.requests[0]!)[0]?.content).toBe('charge failed: card declined for 10');
  });

  it('does not run a write that first threw while a paused batch was resumed, when that resume is cancelled', async () => {
    const run = new AbortController();
    // The run is cancelled once the charge's failure is read: the batch stays paused.
    const hooks: Hooks = {
      postToolUse: [
        (call, output) => {
          if (call.name === 'charge') run.abort(new Error('Ctrl-C'));
          return output;
        },
      ],
    };
    const { harness, charged } = desk(hooks);
    const checkpoints = createMemoryCheckpointStore();
    const paused = await runAgent({
      harness,
      model: createScriptedModel([
        toolTurn([
          { name: 'charge', input: { amount: 500 }, id: 'toolu_charge' },
          { name: 'refund', input: { order_id: 'ORD1' }, id: 'toolu_refund' },
        ]),
      ]),
      modelId: 'scripted',
      prompt: 'charge 500 and refund ORD1',
      clock: clock(),
      mode: 'interactive',
      approver: async () => 'defer',
      runId: 'run',
      checkpoints,
    });
    expect(paused.status).toBe('awaiting_approval');
    expect(charged).toEqual([]);
    const cancelled = await resumeAgent({
      runId: 'run',
      checkpoints,
      harness,
      model: createScriptedModel([]),
      clock: clock(),
      approvals: { toolu_charge: true },
      approver: async () => 'defer',
      signal: run.signal,
    });
    expect(cancelled.status).toBe('error');
    expect(charged).toEqual([500]);

    const model = createScriptedModel([textTurn('ok')]);
    const result = await resumeAgent({
      runId: 'run',
      checkpoints,
      harness,
      model,
      clock: clock(),
      approvals: true,
    });
    expect(result.status).toBe('done');
    expect(charged).toEqual([500]);
    expect(toolResults(model.requests[0]!)[0]?.content).toBe(
      'charge failed: card declined for 500',
    );
  });

  it('answers it under an id the redaction at rest masks', async () => {
    const { harness, checkpoints, charged } = await pausedAfterDecline(cardId);
    expect(checkpoints.files.get('run')).not.toContain(cardId);
    const model = createScriptedModel([textTurn('ok')]);
    const result = await resumeAgent({
      runId: 'run',
      checkpoints,
      harness,
      model,
      clock: clock(),
      approvals: true,
    });
    expect(result.status).toBe('done');
    expect(charged).toEqual([10]);
    expect(toolResults(model.requests[0]!)[0]?.content).toBe('charge failed: card declined for 10');
  });

  it('does not answer a call from the failure of its id twin: the twin that never ran is asked', async () => {
    const { harness, charged } = desk();
    const checkpoints = createMemoryCheckpointStore();
    const paused = await runAgent({
      harness,
      model: createScriptedModel([
        toolTurn([
          { name: 'charge', input: { amount: 5 }, id: 'toolu_same' },
          { name: 'charge', input: { amount: 500 }, id: 'toolu_same' },
        ]),
      ]),
      modelId: 'scripted',
      prompt: 'charge both',
      clock: clock(),
      mode: 'interactive',
      approver: async () => 'defer',
      runId: 'twins',
      checkpoints,
    });
    expect(paused.status).toBe('awaiting_approval');
    expect(charged).toEqual([5]);

    const asked: unknown[] = [];
    const model = createScriptedModel([textTurn('ok')]);
    const result = await resumeAgent({
      runId: 'twins',
      checkpoints,
      harness,
      model,
      clock: clock(),
      approver: async (call) => {
        asked.push(call.input);
        return true;
      },
    });
    expect(result.status).toBe('done');
    expect(asked).toEqual([{ amount: 500 }]);
    // Under a shared id the kept failure cannot be told apart: the declined one runs again.
    expect(charged).toEqual([5, 5, 500]);
    expect(toolResults(model.requests[0]!)[1]?.content).toBe('charged 500');
  });
});

describe('a checkpoint of a paused batch with failed writes', () => {
  const paused = (notMade: unknown) => ({
    version: 2,
    runId: 'run-1',
    state: 'awaiting_approval',
    variant: 'v',
    model: 'm',
    mode: 'interactive',
    prompt: 'p',
    system: 's',
    step: 1,
    messages: [{ role: 'user', content: 'p' }],
    history: [],
    errorTexts: [],
    stats: {
      steps: 1,
      toolCalls: 0,
      toolErrors: 0,
      unconfirmedWrites: 0,
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      modelMs: 0,
      toolMs: 0,
    },
    store: {},
    pendingApproval: {
      step: 1,
      calls: [
        { id: 'toolu_charge', name: 'charge', input: { amount: 10 } },
        { id: 'toolu_big', name: 'refund', input: { order_id: 'BIG' } },
      ],
      requests: [{ id: 'toolu_big', tool: 'refund', input: {}, reason: 'r' }],
      answers: {},
      ...(notMade !== undefined && { notMade }),
    },
    writes: [],
    createdAt: '2026-10-01T09:00:00.000Z',
    updatedAt: '2026-10-01T09:00:00.000Z',
  });
  const parse = (notMade: unknown) =>
    parseCheckpoint(JSON.stringify(paused(notMade)), 'run-1.json').pendingApproval?.notMade;
  const failure = { tool: 'charge', decision: 'failed', content: 'charge failed: declined' };

  it('is read with its failed writes, and as before without them', () => {
    expect(parse({ toolu_charge: failure })).toEqual({ toolu_charge: failure });
    expect(parse(undefined)).toBeUndefined();
  });

  it.each([
    [
      'an id that is not among the paused calls',
      { toolu_other: failure },
      /^run-1\.json: pendingApproval\.notMade\.toolu_other: is not the id of a paused call of that tool/,
    ],
    [
      'the id of a call of another tool',
      { toolu_big: failure },
      /^run-1\.json: pendingApproval\.notMade\.toolu_big: is not the id of a paused call of that tool/,
    ],
    [
      // Read under that key, the log could answer this call with another tool's write.
      'a key of another tool',
      { toolu_charge: { ...failure, key: 'refund:0123456789abcdef' } },
      /^run-1\.json: pendingApproval\.notMade\.toolu_charge: has a key that is not a write key of charge/,
    ],
    [
      'an answer that is not text',
      { toolu_charge: { ...failure, content: 42 } },
      /^run-1\.json: pendingApproval\.notMade\.toolu_charge\.content: /,
    ],
    [
      'a decision of a call that took effect',
      { toolu_charge: { ...failure, decision: 'allow' } },
      /^run-1\.json: pendingApproval\.notMade\.toolu_charge\.decision: /,
    ],
  ])('is refused with %s, naming the file and the field', (_what, notMade, message) => {
    expect(() => parse(notMade)).toThrow(message);
  });

  it('is refused with an id other than its call has at rest: resume would match no call', () => {
    // The call's id is masked at rest; a hand-edited key with the whole number matches none.
    const checkpoint = paused({ [cardId]: failure });
    checkpoint.pendingApproval.calls[0] = {
      id: 'call-4111****1111',
      name: 'charge',
      input: { amount: 10 },
    };
    expect(() => parseCheckpoint(JSON.stringify(checkpoint), 'run-1.json')).toThrow(
      /^run-1\.json: pendingApproval\.notMade\.call-4111111111111111: is not the id of a paused call/,
    );
  });

  it('is read with the masked id of a call a store kept unmasked, as resume matches it', () => {
    const checkpoint = paused({ 'call-4111****1111': failure });
    checkpoint.pendingApproval.calls[0] = { id: cardId, name: 'charge', input: { amount: 10 } };
    const parsed = parseCheckpoint(JSON.stringify(checkpoint), 'run-1.json');
    expect(Object.keys(parsed.pendingApproval?.notMade ?? {})).toEqual(['call-4111****1111']);
  });
});
