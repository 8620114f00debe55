import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createVirtualClock } from '../core/clock.js';
import { parseCheckpoint } from './checkpoint.js';
import { createMemoryCheckpointStore } from './checkpoint-store.js';
import { defineTool } from './define-tool.js';
import type { Harness } from './harness.js';
import {
  createWriteLog,
  idempotencyKeyFor,
  isWriteOutcome,
  type WriteRecord,
} from './idempotency.js';
import { createToolPipeline } from './pipeline.js';
import { resumeAgent } from './resume-agent.js';
import { runAgent } from './run-agent.js';
import { createScriptedModel, textTurn, toolTurn } from './scripted-model.js';
import { testRunState } from './testing/run-state.js';
import { refundTool } from './testing/write-tools.js';
import type { ToolDefinition } from './types.js';

/**
 * A paused batch keeps the writes it made by tool_use id, so that resume answers them from the
 * write log without asking the gates again. An id must then name one call, of the same tool:
 * else a write that never ran is answered as made, and its approval is skipped.
 */

const clock = () => createVirtualClock({ start: Date.parse('2026-10-01T09:00:00Z') });

function refundDesk() {
  const { tool: refund, executed } = refundTool();
  const harness: Harness = {
    name: 'refund-desk',
    tools: [refund],
    system: () => 'You are a test agent.',
    validate: true,
    permissions: {
      rules: [],
      decide: (_tool, args) =>
        (args as { order_id: string }).order_id === 'SMALL'
          ? { effect: 'allow', rule: undefined, reason: 'small refunds are fine' }
          : { effect: 'ask', rule: undefined, reason: 'big refunds need a human' },
    },
    limits: { maxSteps: 5 },
  };
  return { refund, harness, executed };
}

function toolResults(request: { messages: Array<{ content: unknown }> }) {
  const content = request.messages.at(-1)?.content;
  return Array.isArray(content) ? (content as Array<{ content: string }>) : [];
}

describe('a resumed paused batch whose two calls share one tool_use id', () => {
  it.each([
    [true, ['SMALL', 'BIG'], 'refunded BIG'],
    [false, ['SMALL'], 'The user declined refund'],
  ])(
    'asks the approver for the write that did not run (approved: %s); nothing runs twice',
    async (approve, executedAfter, bigResult) => {
      const { harness, executed } = refundDesk();
      const checkpoints = createMemoryCheckpointStore();
      const paused = await runAgent({
        harness,
        model: createScriptedModel([
          toolTurn([
            { name: 'refund', input: { order_id: 'SMALL' }, id: 'toolu_same' },
            { name: 'refund', input: { order_id: 'BIG' }, id: 'toolu_same' },
          ]),
        ]),
        modelId: 'scripted',
        prompt: 'refund both',
        clock: clock(),
        mode: 'interactive',
        approver: async () => 'defer',
        runId: 'dup',
        checkpoints,
      });
      expect(paused.status).toBe('awaiting_approval');
      expect(executed).toEqual(['SMALL']);

      const asked: unknown[] = [];
      const model = createScriptedModel([textTurn('ok')]);
      const result = await resumeAgent({
        runId: 'dup',
        checkpoints,
        harness,
        model,
        clock: clock(),
        approver: async (call) => {
          asked.push(call.input);
          return approve;
        },
      });
      expect(result.status).toBe('done');
      expect(asked).toEqual([{ order_id: 'BIG' }]);
      expect(executed).toEqual(executedAfter);
      const [small, big] = toolResults(model.requests[0]!);
      expect(small?.content).toBe('refunded SMALL');
      expect(big?.content).toContain(bigResult);
      expect(result.toolCalls.map(({ decision, replayed }) => ({ decision, replayed }))).toEqual([
        { decision: 'allow', replayed: true },
        { decision: approve ? 'ask_approved' : 'ask_denied', replayed: undefined },
      ]);
    },
  );
});

describe('a checkpoint paused before `made` was kept only for ids of one call', () => {
  it('does not answer a call from the write its id twin made: the approver is asked, nothing runs twice', async () => {
    const { harness, executed } = refundDesk();
    const checkpoints = createMemoryCheckpointStore();
    const paused = await runAgent({
      harness,
      model: createScriptedModel([
        toolTurn([
          { name: 'refund', input: { order_id: 'SMALL' }, id: 'toolu_same' },
          { name: 'refund', input: { order_id: 'BIG' }, id: 'toolu_same' },
        ]),
      ]),
      modelId: 'scripted',
      prompt: 'refund both',
      clock: clock(),
      mode: 'interactive',
      approver: async () => 'defer',
      runId: 'old',
      checkpoints,
    });
    expect(paused.status).toBe('awaiting_approval');
    // As an older build wrote it: the write SMALL made, under the id both calls share.
    const [small] = (await checkpoints.loadWrites('old')).filter(isWriteOutcome);
    const stored = JSON.parse(checkpoints.files.get('old')!);
    stored.pendingApproval.made = { toolu_same: small!.key };
    checkpoints.files.set('old', JSON.stringify(stored));

    const asked: unknown[] = [];
    const result = await resumeAgent({
      runId: 'old',
      checkpoints,
      harness,
      model: createScriptedModel([textTurn('ok')]),
      clock: clock(),
      approver: async (call) => {
        asked.push(call.input);
        return true;
      },
    });
    expect(result.status).toBe('done');
    expect(asked).toEqual([{ order_id: 'BIG' }]);
    expect(executed).toEqual(['SMALL', 'BIG']);
  });
});

describe('a paused batch whose tool_use id the redaction at rest changes', () => {
  // A card-shaped number: masked in the checkpoint's values, not in its keys.
  const cardId = 'call-4111111111111111';

  it('resumes: the write it made is not kept by id, is answered from the write log, and runs once', async () => {
    const { harness, executed } = refundDesk();
    const checkpoints = createMemoryCheckpointStore();
    const paused = await runAgent({
      harness,
      model: createScriptedModel([
        toolTurn([
          { name: 'refund', input: { order_id: 'SMALL' }, id: cardId },
          { name: 'refund', input: { order_id: 'BIG' }, id: 'toolu_big' },
        ]),
      ]),
      modelId: 'scripted',
      prompt: 'refund both',
      clock: clock(),
      mode: 'interactive',
      approver: async () => 'defer',
      runId: 'card',
      checkpoints,
    });
    expect(paused.status).toBe('awaiting_approval');
    expect(checkpoints.files.get('card')).not.toContain(cardId);
    // Kept by id, it would match no call once masked: the write log answers it instead.
    expect(JSON.parse(checkpoints.files.get('card')!).pendingApproval.made).toBeUndefined();

    const result = await resumeAgent({
      runId: 'card',
      checkpoints,
      harness,
      model: createScriptedModel([textTurn('ok')]),
      clock: clock(),
      approver: async () => true,
    });
    expect(result.status).toBe('done');
    expect(executed).toEqual(['SMALL', 'BIG']);
    expect(result.toolCalls.map(({ decision, replayed }) => ({ decision, replayed }))).toEqual([
      { decision: 'allow', replayed: true },
      { decision: 'ask_approved', replayed: undefined },
    ]);
  });
});

describe('the pipeline on a write made before the pause', () => {
  it("does not answer a call from another tool's log entry under its id: the call passes its gates", async () => {
    const { refund } = refundDesk();
    const save = defineTool({
      name: 'save_note',
      description: 'Save a note',
      effect: 'write',
      parameters: z.object({ note: z.string() }),
      execute: () => 'saved',
    }) as ToolDefinition;
    const state = testRunState({ mode: 'interactive' });
    const key = idempotencyKeyFor(save, { note: 'x' }, state);
    const made: WriteRecord = {
      key,
      tool: 'save_note',
      input: { note: 'x' },
      output: 'saved',
      decision: 'allow',
      step: 1,
      at: '2026-10-01T09:00:00.000Z',
    };
    const asked: string[] = [];
    const pipeline = createToolPipeline({
      tools: [save, refund],
      writes: createWriteLog([made], async () => {}),
      permissions: {
        decide: () => ({ effect: 'ask', rule: undefined, reason: 'a human decides' }),
      },
      approver: async (call) => {
        asked.push(call.name);
        return false;
      },
      madeBeforePause: new Map([['toolu_1', key]]),
    });
    const outcome = await pipeline.run(
      { id: 'toolu_1', name: 'refund', input: { order_id: 'BIG' } },
      state,
    );
    expect(asked).toEqual(['refund']);
    expect(outcome.record.decision).toBe('ask_denied');
    expect(outcome.record.replayed).toBeUndefined();
  });
});

describe('a checkpoint of a paused batch', () => {
  const paused = (made: Record<string, string>) => ({
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
      calls: [{ id: 'toolu_big', name: 'refund', input: { order_id: 'BIG' } }],
      requests: [{ id: 'toolu_big', tool: 'refund', input: {}, reason: 'r' }],
      answers: {},
      made,
    },
    writes: [],
    createdAt: '2026-10-01T09:00:00.000Z',
    updatedAt: '2026-10-01T09:00:00.000Z',
  });

  it('is refused when a made write names a tool_use id that is not among the paused calls', () => {
    expect(() =>
      parseCheckpoint(JSON.stringify(paused({ toolu_other: 'refund:abc' })), 'run-1.json'),
    ).toThrow(/^run-1\.json: pendingApproval\.made\.toolu_other: is not the id of a paused call/);
    expect(
      parseCheckpoint(JSON.stringify(paused({ toolu_big: 'refund:abc' })), 'run-1.json')
        .pendingApproval?.made,
    ).toEqual({ toolu_big: 'refund:abc' });
  });

  it('is refused when a made write key is not of the tool of its call', () => {
    expect(() =>
      parseCheckpoint(JSON.stringify(paused({ toolu_big: 'charge:abc' })), 'run-1.json'),
    ).toThrow(
      /^run-1\.json: pendingApproval\.made\.toolu_big: is not a write key of refund \(refund:…\)/,
    );
  });

  it("is read when a made id is a paused call's id before the redaction at rest masked it (older builds wrote so)", () => {
    const checkpoint = paused({ 'call-4111111111111111': 'refund:abc' });
    checkpoint.pendingApproval.calls = [
      { id: 'call-4111****1111', name: 'refund', input: { order_id: 'SMALL' } },
      ...checkpoint.pendingApproval.calls,
    ];
    expect(parseCheckpoint(JSON.stringify(checkpoint), 'run-1.json').pendingApproval?.made).toEqual(
      { 'call-4111111111111111': 'refund:abc' },
    );
  });
});
