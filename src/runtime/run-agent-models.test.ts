import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createVirtualClock } from '../core/clock.js';
import { type RunningSimulator, startSimulator } from '../simulator/server.js';
import { defineTool } from './define-tool.js';
import type { Harness } from './harness.js';
import { SUMMARY_SYSTEM_PROMPT } from './history-summary.js';
import { createAnthropicModel, type MessageRequest, type ModelClient } from './model-client.js';
import { createRetryingModel } from './retrying-model.js';
import { runAgent } from './run-agent.js';
import { textTurn, toolTurn } from './testing/scripted-model.js';
import { createMemoryTrace } from './trace.js';

const lookup = defineTool({
  name: 'lookup',
  description: 'Look a key up',
  effect: 'read',
  parameters: z.object({ key: z.string() }),
  execute: ({ key }) => `value of ${key}: ${'x'.repeat(300)}`,
});

const harness = (extra: Partial<Harness> = {}): Harness => ({
  name: 'models',
  tools: [lookup],
  system: () => 'Answer briefly.',
  validate: true,
  limits: { maxSteps: 10 },
  ...extra,
});

let simulator: RunningSimulator | undefined;
afterEach(async () => {
  await simulator?.close();
  simulator = undefined;
});

describe('runAgent with the retrying model layer', () => {
  it('writes every retry and the fallback on 529 into the trace, then finishes', async () => {
    simulator = await startSimulator({
      faults: [{ status: 429, retryAfterSeconds: 1 }, { status: 529 }],
    });
    const clock = createVirtualClock({ start: 0 });
    const client = new Anthropic({ apiKey: 'test-key', baseURL: simulator.url, maxRetries: 0 });
    const trace = createMemoryTrace();
    const result = await runAgent({
      harness: harness(),
      model: createRetryingModel({
        model: createAnthropicModel({ client }),
        clock,
        fallbackModels: ['claude-fallback'],
      }),
      modelId: 'claude-main',
      prompt: 'Say hello.',
      clock,
      mode: 'unattended',
      trace,
    });
    expect(result.status).toBe('done');
    expect(trace.events.filter((event) => event.type.startsWith('model_'))).toEqual([
      expect.objectContaining({ type: 'model_retry', step: 1, status: 429, wait_ms: 1000 }),
      {
        type: 'model_fallback',
        step: 1,
        from: 'claude-main',
        to: 'claude-fallback',
        reason: 'overloaded',
      },
      expect.objectContaining({ type: 'model_call', step: 1, stop_reason: 'end_turn' }),
    ]);
    expect(result.stats.modelMs).toBeGreaterThanOrEqual(1000);
  });
});

describe('runAgent with a summary model for trimmed history', () => {
  it('summarises dropped turns with the cheaper model and sends the summary to the main one', async () => {
    const requests: MessageRequest[] = [];
    let mainTurn = 0;
    const model: ModelClient = {
      async createMessage(request) {
        requests.push(structuredClone(request));
        if (request.model === 'cheap-model')
          return textTurn('Looked up k1 and k2.', 'end_turn', [40, 8]);
        mainTurn += 1;
        return mainTurn <= 4
          ? toolTurn([{ name: 'lookup', input: { key: `k${mainTurn}` } }])
          : textTurn('all done');
      },
    };
    const trace = createMemoryTrace();
    const result = await runAgent({
      harness: harness({ historyBudgetChars: 1200 }),
      model,
      modelId: 'main-model',
      prompt: 'Look up k1 to k4.',
      clock: createVirtualClock({ start: 0 }),
      mode: 'unattended',
      trace,
      roleModels: { summarize: 'cheap-model' },
    });
    expect(result.status).toBe('done');
    const summaries = requests.filter((request) => request.model === 'cheap-model');
    expect(summaries.length).toBeGreaterThan(0);
    expect(summaries[0]?.system).toBe(SUMMARY_SYSTEM_PROMPT);
    expect(summaries[0]?.tools).toBeUndefined();
    const last = requests.at(-1)!;
    expect(last.model).toBe('main-model');
    expect(JSON.stringify(last.messages[0])).toContain(
      'Summary of the omitted messages: Looked up k1 and k2.',
    );
    const calls = trace.events.filter((event) => event.type === 'model_call');
    expect(calls.filter((event) => 'role' in event && event.role === 'summarize')).toHaveLength(
      summaries.length,
    );
    // The summary's tokens count towards the run's spend.
    expect(result.stats.inputTokens).toBe(5 * 100 + summaries.length * 40);
  });

  it('sends the plain omission note when no summary model is set (unchanged behaviour)', async () => {
    const requests: MessageRequest[] = [];
    let turn = 0;
    const model: ModelClient = {
      async createMessage(request) {
        requests.push(structuredClone(request));
        turn += 1;
        return turn <= 4
          ? toolTurn([{ name: 'lookup', input: { key: `k${turn}` } }])
          : textTurn('ok');
      },
    };
    await runAgent({
      harness: harness({ historyBudgetChars: 1200 }),
      model,
      modelId: 'main-model',
      prompt: 'Look up k1 to k4.',
      clock: createVirtualClock({ start: 0 }),
      mode: 'unattended',
    });
    expect(requests.every((request) => request.model === 'main-model')).toBe(true);
    expect(JSON.stringify(requests.at(-1)?.messages[0])).toMatch(/earlier messages omitted\]"/);
  });
});
