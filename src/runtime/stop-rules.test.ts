import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createVirtualClock } from '../core/clock.js';
import { createScriptedModel, textTurn, toolTurn } from '../simulator/scripted-model.js';
import { defineTool } from './define-tool.js';
import type { Harness } from './harness.js';
import { createMemoryJournalStore } from './journal/journal-store.js';
import { resumeAgent } from './resume-agent.js';
import { runAgent } from './run-agent.js';
import { modelCallEvent } from './trace.js';

/** What a model client that skips the boundary check (a hand-written double) might hand over. */
const odd = (usage: Record<string, unknown>) => usage as unknown as Anthropic.Usage;

describe('modelCallEvent', () => {
  it('reports only whole non-negative token counts', () => {
    const response = {
      stop_reason: 'end_turn',
      usage: odd({ input_tokens: '7', output_tokens: 2 }),
    };
    expect(modelCallEvent(1, response as Anthropic.Message, 5)).toMatchObject({
      input_tokens: 0,
      output_tokens: 2,
    });
  });
});

describe('stopAfterTools in a run cancelled before its calls ran', () => {
  // Those calls get no result: they never reach the history the stop rules read, and a
  // resumed run runs them. Counted as failures, they would end the resumed run here.
  it('neither counts them towards a failure streak nor stops the resumed run', async () => {
    const lookup = defineTool({
      name: 'lookup',
      description: 'Look something up',
      effect: 'read',
      parameters: z.object({ id: z.string() }),
      execute: ({ id }) => {
        if (id === 'bad') throw new Error('down');
        return { id };
      },
    });
    const harness: Harness = {
      name: 'streak',
      tools: [lookup],
      system: () => 's',
      validate: true,
      limits: { maxSteps: 5, failureStreak: 3, noProgressWindow: 3 },
    };
    const journals = createMemoryJournalStore();
    const controller = new AbortController();
    const calls = [
      { name: 'lookup', input: { id: '1' } },
      { name: 'lookup', input: { id: '2' } },
    ];
    const cancelled = await runAgent({
      harness,
      model: createScriptedModel([
        toolTurn([{ name: 'lookup', input: { id: 'bad' } }]),
        // Ctrl-C as the model answers: neither call runs.
        () => {
          controller.abort(new Error('the user pressed Ctrl-C'));
          return toolTurn(calls);
        },
      ]),
      modelId: 'scripted',
      prompt: 'go',
      clock: createVirtualClock({ start: 0 }),
      mode: 'unattended',
      runId: 'run-1',
      journals,
      signal: controller.signal,
    });
    expect(cancelled.status).toBe('error');
    expect(cancelled.toolCalls.map((record) => record.decision)).toEqual(['failed']);
    expect(cancelled.stats).toMatchObject({ toolCalls: 1, toolErrors: 1 });
    const resumed = await resumeAgent({
      runId: 'run-1',
      journals,
      harness,
      model: createScriptedModel([textTurn('found both')]),
      clock: createVirtualClock({ start: 0 }),
    });
    expect(resumed.status).toBe('done');
    expect(resumed.toolCalls.map((record) => record.decision)).toEqual([
      'failed',
      'allow',
      'allow',
    ]);
    expect(resumed.stats).toMatchObject({ toolCalls: 3, toolErrors: 1 });
  });
});
