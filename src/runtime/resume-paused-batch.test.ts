import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createVirtualClock } from '../core/clock.js';
import { createMemoryCheckpointStore } from './checkpoint-store.js';
import { defineTool } from './define-tool.js';
import type { Harness } from './harness.js';
import { resumeAgent } from './resume-agent.js';
import { runAgent } from './run-agent.js';
import { createScriptedModel, textTurn, toolTurn } from './scripted-model.js';
import type { PreToolUseHook, ToolDefinition } from './types.js';

/**
 * A batch paused for approval is run again on resume with the human's answer. A write of that
 * batch that already ran before the pause is answered from the write log: the model learns
 * that it was made, and its result, whatever the gates say on the second pass.
 */

function tools() {
  const executions = { save: 0, refund: 0 };
  const save = defineTool({
    name: 'save_note',
    description: 'Save a note (a write the rules allow)',
    effect: 'write',
    parameters: z.object({ note: z.string() }),
    execute: ({ note }) => {
      executions.save += 1;
      return `saved ${note} (#${executions.save})`;
    },
  });
  const refund = defineTool({
    name: 'refund',
    description: 'Refund an order (a write a human approves)',
    effect: 'write',
    parameters: z.object({ order_id: z.string() }),
    execute: ({ order_id }) => {
      executions.refund += 1;
      return `refunded ${order_id}`;
    },
  });
  return { list: [save, refund] as ToolDefinition[], executions };
}

const harness = (toolList: ToolDefinition[], hook: PreToolUseHook): Harness => ({
  name: 'paused-batch',
  tools: toolList,
  system: () => 'You are a test agent.',
  validate: true,
  hooks: { preToolUse: [hook], timeoutMs: 20 },
  permissions: {
    rules: [],
    decide: (tool) =>
      tool === 'refund'
        ? { effect: 'ask', rule: undefined, reason: 'refunds need a human' }
        : { effect: 'allow', rule: undefined, reason: 'notes are fine' },
  },
  limits: { maxSteps: 5 },
});

const clock = () => createVirtualClock({ start: Date.parse('2026-10-01T09:00:00Z') });

function toolResults(request: { messages: Array<{ content: unknown }> }) {
  const content = request.messages.at(-1)?.content;
  return Array.isArray(content) ? (content as Array<{ content: string; is_error?: boolean }>) : [];
}

/** Runs the batch [save_note, refund] until it pauses on the refund; save_note ran. */
async function pausedBatch(hook: { broken: boolean }, brokenBy: PreToolUseHook) {
  const { list, executions } = tools();
  const guard: PreToolUseHook = (call, run) => (hook.broken ? brokenBy(call, run) : undefined);
  const checkpoints = createMemoryCheckpointStore();
  const first = createScriptedModel([
    toolTurn([
      { name: 'save_note', input: { note: 'x' }, id: 'toolu_save' },
      { name: 'refund', input: { order_id: 'ORD1' }, id: 'toolu_refund' },
    ]),
  ]);
  const paused = await runAgent({
    harness: harness(list, guard),
    model: first,
    modelId: 'scripted',
    prompt: 'save a note and refund ORD1',
    clock: clock(),
    mode: 'interactive',
    approver: async () => 'defer',
    runId: 'paused-batch',
    checkpoints,
  });
  expect(paused.status).toBe('awaiting_approval');
  expect(executions).toEqual({ save: 1, refund: 0 });
  return { checkpoints, executions, resumedHarness: harness(list, guard) };
}

describe('a resumed paused batch, on a write that already ran before the pause', () => {
  it.each([
    [
      'throws',
      (() => {
        throw new Error('policy service unreachable');
      }) as PreToolUseHook,
    ],
    ['times out', (() => new Promise(() => {})) as PreToolUseHook],
  ])(
    '%s: the model is told the write was made, with its logged result; nothing runs twice',
    async (_how, brokenBy) => {
      const hook = { broken: false };
      const { checkpoints, executions, resumedHarness } = await pausedBatch(hook, brokenBy);

      hook.broken = true;
      const model = createScriptedModel([
        textTurn('The note is saved; the refund could not be made.'),
      ]);
      const result = await resumeAgent({
        runId: 'paused-batch',
        checkpoints,
        harness: resumedHarness,
        model,
        clock: clock(),
        approvals: true,
      });
      model.assertDone();
      expect(result.status).toBe('done');
      expect(executions).toEqual({ save: 1, refund: 0 });

      const [saved, refunded] = toolResults(model.requests[0]!);
      expect(saved?.content).toBe('saved x (#1)');
      expect(saved?.is_error).toBeUndefined();
      expect(saved?.content).not.toContain('not executed');
      // The refund never ran: the broken hook refuses it, truthfully.
      expect(refunded?.content).toContain('refund was not executed');
      expect(refunded?.is_error).toBe(true);

      expect(
        result.toolCalls.map(({ tool, decision, replayed }) => ({ tool, decision, replayed })),
      ).toEqual([
        { tool: 'save_note', decision: 'allow', replayed: true },
        { tool: 'refund', decision: 'hook_deny', replayed: undefined },
      ]);
      expect(result.stats.unconfirmedWrites).toBe(1);
      expect(result.writes?.map((write) => write.key)).toEqual([
        expect.stringMatching(/^save_note:/),
      ]);
    },
  );

  it('answers it from the log without asking its hooks again, even one that now denies it', async () => {
    const hook = { broken: false };
    const asked: string[] = [];
    const { checkpoints, executions, resumedHarness } = await pausedBatch(hook, (call) => {
      asked.push(call.name);
      return { decision: 'deny', reason: 'no more writes today' };
    });
    expect((await checkpoints.load('paused-batch'))?.pendingApproval?.made).toEqual({
      toolu_save: expect.stringMatching(/^save_note:/),
    });

    hook.broken = true;
    const model = createScriptedModel([textTurn('The note is saved.')]);
    const result = await resumeAgent({
      runId: 'paused-batch',
      checkpoints,
      harness: resumedHarness,
      model,
      clock: clock(),
      approvals: true,
    });
    expect(result.status).toBe('done');
    expect(asked).toEqual(['refund']);
    expect(executions).toEqual({ save: 1, refund: 0 });
    const [saved, refunded] = toolResults(model.requests[0]!);
    expect(saved?.content).toBe('saved x (#1)');
    expect(refunded?.content).toBe('Blocked: no more writes today');
  });

  it('answers a write of the batch that timed out before the pause as of unknown outcome, not as not executed', async () => {
    const { list, executions } = tools();
    let broken = false;
    const hungSave = defineTool({
      name: 'save_note',
      description: 'Save a note; the downstream system never answers',
      effect: 'write',
      timeoutMs: 20,
      parameters: z.object({ note: z.string() }),
      execute: () => {
        executions.save += 1;
        return new Promise(() => {});
      },
    });
    const guard: PreToolUseHook = () => {
      if (broken) throw new Error('policy service unreachable');
      return undefined;
    };
    const checkpoints = createMemoryCheckpointStore();
    const variant = { ...harness([hungSave, list[1]!], guard), timeouts: true };
    const paused = await runAgent({
      harness: variant,
      model: createScriptedModel([
        toolTurn([
          { name: 'save_note', input: { note: 'x' }, id: 'toolu_save' },
          { name: 'refund', input: { order_id: 'ORD1' }, id: 'toolu_refund' },
        ]),
      ]),
      modelId: 'scripted',
      prompt: 'save a note and refund ORD1',
      clock: clock(),
      mode: 'interactive',
      approver: async () => 'defer',
      runId: 'paused-batch',
      checkpoints,
    });
    expect(paused.status).toBe('awaiting_approval');
    expect(paused.unresolvedWrites?.map((write) => write.tool)).toEqual(['save_note']);

    broken = true;
    const model = createScriptedModel([textTurn('A human will check the note.')]);
    const result = await resumeAgent({
      runId: 'paused-batch',
      checkpoints,
      harness: variant,
      model,
      clock: clock(),
      approvals: true,
    });
    expect(result.status).toBe('done');
    expect(executions.save).toBe(1);
    const [saved] = toolResults(model.requests[0]!);
    expect(saved?.content).toContain('its outcome is unknown');
    expect(saved?.content).not.toContain('not executed');
    // The answer the batch gave it before the pause, its timeout; a human still resolves it.
    expect(result.toolCalls[0]).toMatchObject({ tool: 'save_note', decision: 'timeout' });
    expect(result.unresolvedWrites?.map((write) => write.tool)).toEqual(['save_note']);
  });
});
