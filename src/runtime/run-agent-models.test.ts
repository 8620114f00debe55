import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createVirtualClock } from '../core/clock.js';
import {
  createAnthropicModel,
  type MessageRequest,
  type ModelClient,
} from '../model-api/model-client.js';
import { createRetryingModel } from '../model-api/retrying-model.js';
import { textTurn, toolTurn } from '../simulator/scripted-model.js';
import { type RunningSimulator, startSimulator } from '../simulator/server.js';
import { defineTool } from './define-tool.js';
import type { Harness } from './harness.js';
import { SUMMARY_SYSTEM_PROMPT } from './history-summary.js';
import { createMemoryJournalStore } from './journal/journal-store.js';
import { resumeAgent } from './resume-agent.js';
import { runAgent } from './run-agent.js';
import { createFailingTrace, type TraceFailure } from './testing/failing-trace.js';
import { createMemoryTrace, type TraceEvent } from './trace.js';

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

describe('runAgent when the trace fails around the history summary', () => {
  /** Executions per key: a write made twice would show as 2. */
  const written = new Map<string, number>();
  const record = defineTool({
    name: 'record',
    description: 'Record a key',
    effect: 'write',
    parameters: z.object({ key: z.string() }),
    idempotencyKey: ({ key }) => `${key}:record`,
    execute: ({ key }) => {
      written.set(key, (written.get(key) ?? 0) + 1);
      return `recorded ${key}: ${'x'.repeat(300)}`;
    },
  });
  const recorder = harness({ tools: [record], historyBudgetChars: 1200 });

  /** Records k1 to k4, then ends; the summary model answers `summary` ('' gives no summary). */
  function summarizingModel(summary: string): ModelClient & { requests: MessageRequest[] } {
    const requests: MessageRequest[] = [];
    let mainTurn = 0;
    return {
      requests,
      async createMessage(request) {
        requests.push(structuredClone(request));
        if (request.model === 'cheap-model') return textTurn(summary, 'end_turn', [40, 8]);
        mainTurn += 1;
        return mainTurn <= 4
          ? toolTurn([{ name: 'record', input: { key: `k${mainTurn}` } }])
          : textTurn('all done');
      },
    };
  }

  const isSummaryCall = (event: TraceEvent) =>
    event.type === 'model_call' && 'role' in event && event.role === 'summarize';
  const cases = (['throws', 'rejects', 'rejects later'] as const).flatMap((how: TraceFailure) => [
    // The summary model answers: its model_call event is the first one written after the tools.
    {
      event: 'model_call',
      failOn: isSummaryCall,
      summary: 'Recorded k1.',
      lastKept: 'tool_call',
      how,
    },
    // The summary model answers no text: its model_call is kept, summary_skipped fails.
    {
      event: 'summary_skipped',
      failOn: (event: TraceEvent) => event.type === 'summary_skipped',
      summary: '',
      lastKept: 'model_call',
      how,
    },
  ]);
  const mainCalls = (requests: readonly MessageRequest[]) =>
    requests.filter((request) => request.model === 'main-model').length;

  it.each(cases)(
    "makes no main model call when the summary's $event event $how; a resume writes nothing twice",
    async ({ event, failOn, summary, lastKept, how }) => {
      written.clear();
      const model = summarizingModel(summary);
      const journals = createMemoryJournalStore();
      const trace = createFailingTrace(failOn, how);
      const start = {
        harness: recorder,
        model,
        modelId: 'main-model',
        clock: createVirtualClock({ start: 0 }),
        roleModels: { summarize: 'cheap-model' },
      };
      const result = await runAgent({
        ...start,
        prompt: 'Record k1 to k4.',
        mode: 'unattended',
        runId: 'run-1',
        trace,
        journals,
      });
      // The summary call was the last one: the main call of its step never went out.
      expect(model.requests.at(-1)?.model).toBe('cheap-model');
      const step = mainCalls(model.requests) + 1;
      expect(result.status).toBe('error');
      expect(result.detail).toBe(
        `the trace sink failed at the ${event} event (step ${step}): disk full. The run stopped before its next step; its journal keeps what it did: fix the trace (free disk space, or the sink), then resume run run-1`,
      );
      expect(trace.events.at(-1)?.type).toBe(lastKept);

      const resumed = await resumeAgent({
        ...start,
        runId: 'run-1',
        journals,
        trace: createMemoryTrace(),
      });
      expect(resumed.status).toBe('done');
      expect(resumed.answer).toBe('all done');
      // Each step asked the main model once, and each write ran once.
      expect(mainCalls(model.requests)).toBe(5);
      expect(Object.fromEntries(written)).toEqual({ k1: 1, k2: 1, k3: 1, k4: 1 });
    },
  );
});

describe('runAgent when the trace fails at a retry or a fallback of the model call', () => {
  const cases = (['throws', 'rejects', 'rejects later'] as const).flatMap((how: TraceFailure) => [
    // Four failures: without the stop, four more attempts (one per retry) would go out.
    {
      event: 'model_retry' as const,
      faults: [{ status: 529 }, { status: 500 }, { status: 529 }, { status: 500 }],
      fallbackModels: [],
      how,
    },
    // An overload with a fallback left: the fallback model's call would go out.
    {
      event: 'model_fallback' as const,
      faults: [{ status: 529 }],
      fallbackModels: ['claude-fallback'],
      how,
    },
  ]);

  it.each(cases)(
    'sends no more requests once the $event event $how, and ends as a trace failure ends a run',
    async ({ event, faults, fallbackModels, how }) => {
      simulator = await startSimulator({ faults });
      const clock = createVirtualClock({ start: 0 });
      const client = new Anthropic({ apiKey: 'test-key', baseURL: simulator.url, maxRetries: 0 });
      const journals = createMemoryJournalStore();
      const trace = createFailingTrace(event, how);
      const start = {
        harness: harness(),
        model: createRetryingModel({
          model: createAnthropicModel({ client }),
          clock,
          fallbackModels,
          random: () => 0,
        }),
        modelId: 'claude-main',
        clock,
      };
      const result = await runAgent({
        ...start,
        prompt: 'Say hello.',
        mode: 'unattended',
        runId: 'run-1',
        trace,
        journals,
      });
      // The first attempt failed and its event could not be written: nothing more was sent,
      // and no backoff was waited for.
      expect(simulator.requestCount()).toBe(1);
      expect(clock.now()).toBe(0);
      expect(result.status).toBe('error');
      expect(result.detail).toBe(
        `the trace sink failed at the ${event} event (step 1): disk full. The run stopped before its next step; its journal keeps what it did: fix the trace (free disk space, or the sink), then resume run run-1`,
      );
      expect(trace.events.map((written) => written.type)).toEqual(['run_start']);

      const resumed = await resumeAgent({
        ...start,
        runId: 'run-1',
        journals,
        trace: createMemoryTrace(),
      });
      expect(resumed.status).toBe('done');
    },
  );
});
