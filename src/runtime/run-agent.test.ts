import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createVirtualClock } from '../core/clock.js';
import { createScriptedModel, textTurn, toolTurn } from '../simulator/scripted-model.js';
import { defineTool } from './define-tool.js';
import type { Harness } from './harness.js';
import { type RunAgentOptions, runAgent } from './run-agent.js';
import { createMemoryTrace } from './trace.js';

const lookup = defineTool({
  name: 'lookup',
  description: 'Look something up',
  effect: 'read',
  parameters: z.object({ key: z.string() }),
  execute: ({ key }) => {
    if (key.startsWith('bad')) throw new Error(`no such key ${key}`);
    return { key, secret: 'RESULT-TEXT-6222020200112233445' };
  },
});

const harness = (limits: Partial<Harness['limits']> = {}): Harness => ({
  name: 'test',
  tools: [lookup],
  system: ({ clock, mode }) =>
    `Today is ${new Date(clock.now()).toISOString().slice(0, 10)}. Mode: ${mode}.`,
  validate: true,
  limits: { maxSteps: 10, ...limits },
});

function options(turns: Parameters<typeof createScriptedModel>[0], h = harness()) {
  const model = createScriptedModel(turns);
  const trace = createMemoryTrace();
  const run: RunAgentOptions = {
    harness: h,
    model,
    modelId: 'test-model',
    prompt: 'find key a',
    clock: createVirtualClock({ start: Date.parse('2026-10-01T09:00:00Z') }),
    mode: 'unattended',
    trace,
  };
  return { model, trace, run };
}

describe('runAgent', () => {
  it('runs tool calls and returns the final answer with stats', async () => {
    const { model, run } = options([
      toolTurn([{ name: 'lookup', input: { key: 'a' } }], [50, 10]),
      textTurn('found it', 'end_turn', [80, 5]),
    ]);
    const result = await runAgent(run);
    model.assertDone();
    expect(result.status).toBe('done');
    expect(result.answer).toBe('found it');
    expect(result.stats).toMatchObject({
      steps: 2,
      toolCalls: 1,
      toolErrors: 0,
      inputTokens: 130,
      outputTokens: 15,
    });
    // The second request carries the assistant turn and the tool_result, in order.
    const second = model.requests[1]!;
    expect(second.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(second.system).toBe('Today is 2026-10-01. Mode: unattended.');
  });

  it('stops at max_steps', async () => {
    const turns = Array.from({ length: 3 }, (_, i) =>
      toolTurn([{ name: 'lookup', input: { key: `k${i}` } }]),
    );
    const { model, run } = options(turns, harness({ maxSteps: 3 }));
    const result = await runAgent(run);
    model.assertDone();
    expect(result.status).toBe('max_steps');
  });

  it('stops when the token budget is spent', async () => {
    const { run } = options(
      [toolTurn([{ name: 'lookup', input: { key: 'a' } }], [600, 100]), textTurn('unused')],
      harness({ tokenBudget: 500 }),
    );
    const result = await runAgent(run);
    expect(result.status).toBe('token_budget');
    expect(result.detail).toContain('700');
  });

  it('stops when the same call repeats (no progress)', async () => {
    const same = () => toolTurn([{ name: 'lookup', input: { key: 'a' } }]);
    const { model, run } = options([same(), same(), same()], harness({ noProgressWindow: 3 }));
    const result = await runAgent(run);
    model.assertDone();
    expect(result.status).toBe('no_progress');
  });

  it('stops when the same error repeats for different calls (no progress)', async () => {
    const wrong = (i: number) => toolTurn([{ name: 'lookup', input: { key: 7 + i } }]);
    const { model, run } = options(
      [wrong(0), wrong(1), wrong(2)],
      harness({ noProgressWindow: 3 }),
    );
    const result = await runAgent(run);
    model.assertDone();
    expect(result.status).toBe('no_progress');
  });

  it('stops after a streak of failed calls', async () => {
    const bad = (i: number) => toolTurn([{ name: 'lookup', input: { key: `bad${i}` } }]);
    const { model, run } = options([bad(1), bad(2)], harness({ failureStreak: 2 }));
    const result = await runAgent(run);
    model.assertDone();
    expect(result.status).toBe('failure_streak');
  });

  it('continues after pause_turn', async () => {
    const { model, run } = options([textTurn('thinking', 'pause_turn'), textTurn('done now')]);
    const result = await runAgent(run);
    model.assertDone();
    expect(result.status).toBe('done');
    expect(result.answer).toBe('done now');
  });

  it.each(['max_tokens', 'refusal', 'something_new'])(
    'ends with model_stop on stop_reason %s',
    async (reason) => {
      const { run } = options([textTurn('partial', reason)]);
      const result = await runAgent(run);
      expect(result.status).toBe('model_stop');
      expect(result.detail).toContain(reason);
    },
  );

  it('ends with model_stop when the model returns no content', async () => {
    const empty = { ...textTurn('x'), content: [] };
    const { run } = options([empty]);
    const result = await runAgent(run);
    expect(result.status).toBe('model_stop');
    expect(result.detail).toContain('no content');
  });

  it('ends with error when the model call fails', async () => {
    const { run } = options([]);
    const result = await runAgent(run);
    expect(result.status).toBe('error');
    expect(result.detail).toContain('unexpected call #1');
  });

  it('writes a trace of every event but never the tool result text or a card number', async () => {
    const { trace, run } = options([
      toolTurn([{ name: 'lookup', input: { key: 'card 6222020200112233445' } }]),
      textTurn('ok'),
    ]);
    await runAgent(run);
    expect(trace.events.map((event) => event.type)).toEqual([
      'run_start',
      'model_call',
      'tool_call',
      'model_call',
      'run_end',
    ]);
    const text = JSON.stringify(trace.events);
    expect(text).not.toContain('RESULT-TEXT');
    expect(text).not.toContain('6222020200112233445');
    expect(text).toContain('6222****3445');
    const toolCall = trace.events[2];
    expect(toolCall).toMatchObject({ type: 'tool_call', decision: 'allow', is_error: false });
  });
});
