import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createVirtualClock } from '../core/clock.js';
import { isWriteNotMade, WriteNotMadeError } from '../core/errors.js';
import * as entry from '../index.js';
import { createMemoryCheckpointStore } from './checkpoint-store.js';
import { defineTool } from './define-tool.js';
import type { Harness } from './harness.js';
import { createWriteLog, type WriteLogEntry } from './idempotency.js';
import { createToolPipeline } from './pipeline.js';
import { resumeAgent } from './resume-agent.js';
import { runAgent } from './run-agent.js';
import { createScriptedModel, textTurn, toolTurn } from './scripted-model.js';
import { testRunState } from './testing/run-state.js';
import { refundTool } from './testing/write-tools.js';
import type { ToolDefinition } from './types.js';

/**
 * A write that fails once its signal aborted (its timeout, the run's cancellation) may have
 * written first, so its outcome stays unknown for a human. A tool that knows better (it checked
 * with the downstream system, or aborted before sending) throws a WriteNotMadeError: then the
 * intent is cleared, and the model is told that the write did not take effect.
 */

const kinds = (entries: WriteLogEntry[]) =>
  entries.map((logged) => ('kind' in logged ? logged.kind : 'outcome'));

function memoryLog() {
  const entries: WriteLogEntry[] = [];
  const log = createWriteLog([], async (logged) => {
    entries.push(logged);
  });
  return { log, entries };
}

/** What a copy of the package other than this one throws: its own class, with the brand. */
class OtherCopyWriteNotMadeError extends Error {
  constructor(message: string) {
    super(message);
    Object.assign(this, { [Symbol.for('harness-evals.WriteNotMadeError')]: true });
  }
}

/**
 * A payment that waits 10 s on the clock before it sends, past its 1 s timeout. At the deadline
 * it throws what `atDeadline` makes (after `before`, when given: a check that takes its time).
 */
function slowPayment(atDeadline: () => unknown, before?: Promise<void>) {
  let executions = 0;
  const tool = defineTool({
    name: 'pay',
    description: 'Send a payment',
    effect: 'write',
    timeoutMs: 1000,
    parameters: z.object({ amount: z.number() }),
    execute: async ({ amount }, { clock }) => {
      executions += 1;
      try {
        await clock.sleep(10_000);
      } catch {
        await before;
        throw atDeadline();
      }
      return `paid ${amount}`;
    },
  }) as ToolDefinition;
  return { tool, executions: () => executions };
}

const payCall = (id: string) => ({ id, name: 'pay', input: { amount: 5 } });

describe('WriteNotMadeError', () => {
  it('is exported from the package entry', () => {
    expect(entry.WriteNotMadeError).toBe(WriteNotMadeError);
    const error = new WriteNotMadeError('the payment was never sent');
    expect(error).toBeInstanceOf(entry.HarnessError);
    expect(error).toMatchObject({ name: 'WriteNotMadeError', code: 'write_not_made' });
  });

  it('is recognised by a brand it does not carry as its own: a copy of its fields is not one', () => {
    const error = new WriteNotMadeError('the payment was never sent');
    class NeverSentError extends WriteNotMadeError {}
    expect(isWriteNotMade(error)).toBe(true);
    expect(isWriteNotMade(new NeverSentError('never sent'))).toBe(true);
    expect(Object.getOwnPropertySymbols(error)).toEqual([]);
    expect(isWriteNotMade({ ...error })).toBe(false);
    expect(isWriteNotMade(Object.assign(new Error('wrapped'), error))).toBe(false);
  });
});

describe('a write that times out and says it wrote nothing', () => {
  it.each([
    ['a WriteNotMadeError', () => new WriteNotMadeError('the payment was never sent')],
    ["another copy's WriteNotMadeError", () => new OtherCopyWriteNotMadeError('never sent')],
  ])(
    'with %s at its deadline: the model is told it did not take effect; no intent is left; a retry runs it',
    async (_what, atDeadline) => {
      const payment = slowPayment(atDeadline);
      const { log, entries } = memoryLog();
      const pipeline = createToolPipeline({ tools: [payment.tool], timeouts: true, writes: log });
      const first = await pipeline.run(payCall('a'), testRunState());
      expect(first.record).toMatchObject({ decision: 'timeout', isError: true });
      expect(first.result.content).toContain('pay timed out after 1000 ms');
      expect(first.result.content).toContain('it did not take effect');
      expect(first.result.content).not.toContain('outcome is unknown');
      expect(kinds(entries)).toEqual(['intent', 'cleared']);
      expect(log.unresolvedList()).toEqual([]);

      const retry = await pipeline.run(payCall('b'), testRunState());
      expect(retry.record.decision).toBe('timeout');
      expect(payment.executions()).toBe(2);
    },
  );

  it.each([
    ['another error', () => new Error('aborted')],
    [
      'an error whose cause is a WriteNotMadeError',
      () => new Error('payment failed', { cause: new WriteNotMadeError('never sent') }),
    ],
    [
      "an error given a WriteNotMadeError's properties (Object.assign)",
      () => Object.assign(new Error('payment failed'), new WriteNotMadeError('never sent')),
    ],
    ['a copy of a WriteNotMadeError ({ ...error })', () => ({ ...new WriteNotMadeError('x') })],
  ])('with %s: its outcome stays unknown, for a human', async (_what, atDeadline) => {
    const payment = slowPayment(atDeadline);
    const { log, entries } = memoryLog();
    const pipeline = createToolPipeline({ tools: [payment.tool], timeouts: true, writes: log });
    const first = await pipeline.run(payCall('a'), testRunState());
    expect(first.record.decision).toBe('timeout');
    expect(first.result.content).toContain('its outcome is unknown');
    await new Promise((resolve) => setImmediate(resolve));
    expect(kinds(entries)).toEqual(['intent']);
    expect(log.unresolvedList()).toHaveLength(1);
    expect((await pipeline.run(payCall('b'), testRunState())).record.decision).toBe(
      'outcome_unknown',
    );
    expect(payment.executions()).toBe(1);
  });

  it('ends the run when the write log cannot clear its intent: it stays for a human', async () => {
    const payment = slowPayment(() => new WriteNotMadeError('the payment was never sent'));
    const log = createWriteLog([], async (logged) => {
      if ('kind' in logged && logged.kind === 'cleared') throw new Error('ENOSPC: disk full');
    });
    const pipeline = createToolPipeline({ tools: [payment.tool], timeouts: true, writes: log });
    const first = await pipeline.run(payCall('a'), testRunState());
    expect(first.fatal).toMatch(
      /^pay reported that it wrote nothing, and the write log could not record that write pay:\w+ did not take effect: ENOSPC: disk full; it is left with an unknown outcome/,
    );
    expect(first.notMade).toBeUndefined();
    expect(log.unresolvedList()).toHaveLength(1);
  });

  it('says so late, after the model was told: the intent is cleared, so no human is asked', async () => {
    let checked!: () => void;
    const check = new Promise<void>((resolve) => {
      checked = resolve;
    });
    const payment = slowPayment(
      () => new WriteNotMadeError('the provider has no such payment'),
      check,
    );
    const { log, entries } = memoryLog();
    const pipeline = createToolPipeline({ tools: [payment.tool], timeouts: true, writes: log });
    const first = await pipeline.run(payCall('a'), testRunState());
    expect(first.result.content).toContain('its outcome is unknown');
    expect(log.unresolvedList()).toHaveLength(1);

    checked();
    await new Promise((resolve) => setImmediate(resolve));
    expect(kinds(entries)).toEqual(['intent', 'cleared']);
    expect(log.unresolvedList()).toEqual([]);
  });
});

describe('a write stopped by the run cancellation that says it wrote nothing', () => {
  it('is cancelled: the model is told it did not take effect; no intent is left; a later run may make it', async () => {
    const run = new AbortController();
    let executions = 0;
    const tool = defineTool({
      name: 'charge',
      description: 'Charges once the provider answers; the cancellation ends the wait first',
      effect: 'write',
      parameters: z.object({ amount: z.number() }),
      execute: async (_args, { signal }) => {
        executions += 1;
        if (executions > 1) return 'charged';
        const aborted = new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () =>
            reject(new WriteNotMadeError('the charge was never sent')),
          ),
        );
        run.abort(new Error('the user pressed Ctrl-C'));
        await aborted;
        return 'charged';
      },
    });
    const { log, entries } = memoryLog();
    const pipeline = createToolPipeline({ tools: [tool], writes: log, signal: run.signal });
    const call = { id: 'a', name: 'charge', input: { amount: 5 } };
    const first = await pipeline.run(call, testRunState());
    expect(first.record).toMatchObject({ decision: 'cancelled', isError: true });
    expect(first.result.content).toContain('charge was stopped because the run was cancelled');
    expect(first.result.content).toContain('it did not take effect');
    expect(first.result.content).not.toContain('outcome is unknown');
    expect(kinds(entries)).toEqual(['intent', 'cleared']);
    expect(log.unresolvedList()).toEqual([]);

    const later = createToolPipeline({ tools: [tool], writes: log });
    expect((await later.run({ ...call, id: 'b' }, testRunState())).record.decision).toBe('allow');
    expect(executions).toBe(2);
  });
});

describe('a paused batch with a write that timed out and said it wrote nothing', () => {
  it('answers it on resume as it was answered, without running it again', async () => {
    const payment = slowPayment(() => new WriteNotMadeError('never sent'));
    const refund = refundTool();
    const harness: Harness = {
      name: 'desk',
      tools: [payment.tool, refund.tool],
      system: () => 'You are a test agent.',
      timeouts: true,
      permissions: {
        rules: [],
        decide: (tool) =>
          tool === 'refund'
            ? { effect: 'ask', rule: undefined, reason: 'a human decides' }
            : { effect: 'allow', rule: undefined, reason: 'payments are fine' },
      },
      limits: { maxSteps: 5 },
    };
    const checkpoints = createMemoryCheckpointStore();
    const clock = () => createVirtualClock({ start: 0 });
    const paused = await runAgent({
      harness,
      model: createScriptedModel([
        toolTurn([
          { name: 'pay', input: { amount: 5 }, id: 'toolu_pay' },
          { name: 'refund', input: { order_id: 'ORD1' }, id: 'toolu_refund' },
        ]),
      ]),
      modelId: 'scripted',
      prompt: 'pay 5 and refund ORD1',
      clock: clock(),
      mode: 'interactive',
      approver: async () => 'defer',
      runId: 'run',
      checkpoints,
    });
    expect(paused.status).toBe('awaiting_approval');
    expect(paused.unresolvedWrites).toBeUndefined();

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
    expect(payment.executions()).toBe(1);
    const results = model.requests[0]?.messages.at(-1)?.content as Array<{ content: string }>;
    expect(results[0]?.content).toContain('it did not take effect');
    expect(result.toolCalls[0]).toMatchObject({ tool: 'pay', decision: 'timeout' });
  });
});
