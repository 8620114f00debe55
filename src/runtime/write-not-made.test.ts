import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isWriteNotMade, WriteNotMadeError } from '../core/errors.js';
import * as entry from '../index.js';
import { defineTool } from './define-tool.js';
import { maskCardNumbers } from './hooks/mask-card-numbers.js';
import type { ToolOutcome } from './pipeline.js';
import { durablePipeline } from './testing/durable-pipeline.js';
import type { ToolDefinition } from './types.js';

/**
 * A write that fails once its signal aborted (its timeout, the run's cancel) may have written
 * first, so its outcome stays unknown. A tool that knows better (it checked with the downstream
 * system, or aborted before sending) throws a WriteNotMadeError: then its key is free again.
 */

/** What a copy of the package other than this one throws: its own class, with the brand. */
class OtherCopyWriteNotMadeError extends Error {
  constructor(message: string) {
    super(message);
    Object.assign(this, { [Symbol.for('harness-evals.WriteNotMadeError')]: true });
  }
}

/** A payment that waits 10 s on the clock before it sends, past its 1 s timeout, then throws `atDeadline()`. */
function slowPayment(atDeadline: () => unknown) {
  let executions = 0;
  const tool = defineTool({
    name: 'pay',
    description: 'Send a payment',
    effect: 'write',
    timeoutMs: 1000,
    parameters: z.object({ amount: z.number() }),
    execute: async ({ amount }, { clock }) => {
      executions += 1;
      if (executions > 1) return `paid ${amount}`;
      await clock.sleep(10_000).catch(() => undefined);
      throw atDeadline();
    },
  }) as ToolDefinition;
  return { tool, executions: () => executions };
}

const payCall = (id: string) => ({ id, name: 'pay', input: { amount: 5 } });
const ended = (outcome: ToolOutcome) => {
  if (outcome.kind !== 'result') throw new Error(`expected a result, got ${outcome.kind}`);
  return { decision: outcome.record.decision, content: String(outcome.result.content) };
};
const settled = () => new Promise((resolve) => setImmediate(resolve));

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

describe('a durable write that times out', () => {
  it.each([
    ['a WriteNotMadeError', () => new WriteNotMadeError('the payment was never sent')],
    ["another copy's WriteNotMadeError", () => new OtherCopyWriteNotMadeError('never sent')],
  ])(
    'and then throws %s: its key is settled as not made, so the next identical call runs it',
    async (_what, atDeadline) => {
      const payment = slowPayment(atDeadline);
      const desk = await durablePipeline({ tools: [payment.tool], timeouts: true });
      const first = ended(await desk.call(payCall('a')));
      expect(first.decision).toBe('timeout');
      expect(first.content).toContain('its outcome is unknown');
      await settled();
      expect([...desk.journal.view.writes.values()]).toEqual([
        expect.objectContaining({ made: 'no', toldUnknown: true }),
      ]);
      expect(ended(await desk.call(payCall('b'))).decision).toBe('allow');
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
  ])(
    'and then throws %s: its outcome stays unknown and it is never run again',
    async (_what, atDeadline) => {
      const payment = slowPayment(atDeadline);
      const desk = await durablePipeline({ tools: [payment.tool], timeouts: true });
      expect(ended(await desk.call(payCall('a'))).decision).toBe('timeout');
      await settled();
      expect([...desk.journal.view.writes.values()]).toEqual([
        expect.objectContaining({ made: 'unknown' }),
      ]);
      expect(ended(await desk.call(payCall('b'))).decision).toBe('outcome_unknown');
      expect(payment.executions()).toBe(1);
    },
  );
});

describe('a durable write that times out and then succeeds', () => {
  it('answers the next identical call with its late result, through the PostToolUse hooks, without running it', async () => {
    let executions = 0;
    let finish: () => void = () => {};
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const tool = defineTool({
      name: 'pay',
      description: 'Send a payment',
      effect: 'write',
      timeoutMs: 1000,
      parameters: z.object({ amount: z.number() }),
      execute: async (_args, { clock }) => {
        executions += 1;
        await clock.sleep(10_000).catch(() => undefined);
        await finished;
        return { paid: 5, account: '6222020200112233445' };
      },
    }) as ToolDefinition;
    const desk = await durablePipeline({
      tools: [tool],
      timeouts: true,
      hooks: { postToolUse: [maskCardNumbers()] },
    });
    expect(ended(await desk.call(payCall('a'))).decision).toBe('timeout');
    expect(ended(await desk.call(payCall('b'))).decision).toBe('outcome_unknown');
    finish();
    await settled();
    const late = ended(await desk.call(payCall('c')));
    expect(late).toEqual({ decision: 'allow', content: '{"paid":5,"account":"6222****3445"}' });
    expect(executions).toBe(1);
  });
});

describe("a durable write cut off by the run's cancel", () => {
  function charge(atAbort: () => unknown) {
    const run = new AbortController();
    let executions = 0;
    const tool = defineTool({
      name: 'charge',
      description: 'Charges once the provider answers; the cancel ends the wait first',
      effect: 'write',
      parameters: z.object({ amount: z.number() }),
      execute: async (_args, { signal }) => {
        executions += 1;
        const aborted = new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(atAbort())),
        );
        run.abort(new Error('the user pressed Ctrl-C'));
        await aborted;
        return 'charged';
      },
    }) as ToolDefinition;
    return { tool, run, executions: () => executions };
  }

  it('that says it wrote nothing gets no result and frees its key: a resumed run runs it', async () => {
    const stopped = charge(() => new WriteNotMadeError('the charge was never sent'));
    const desk = await durablePipeline({ tools: [stopped.tool], signal: stopped.run.signal });
    expect((await desk.call({ id: 'a', name: 'charge', input: { amount: 5 } })).kind).toBe(
      'not_run',
    );
    expect(desk.journal.view.open?.results).toEqual([]);
    expect([...desk.journal.view.writes.values()]).toEqual([
      expect.objectContaining({ made: 'no' }),
    ]);
  });

  it('that fails otherwise gets outcome_unknown: it may have written first', async () => {
    const stopped = charge(() => new Error('socket closed'));
    const desk = await durablePipeline({ tools: [stopped.tool], signal: stopped.run.signal });
    const first = ended(await desk.call({ id: 'a', name: 'charge', input: { amount: 5 } }));
    expect(first.decision).toBe('outcome_unknown');
    expect(first.content).toContain(
      'charge was stopped because the run was cancelled, but it may already have taken effect',
    );
    expect([...desk.journal.view.writes.values()]).toEqual([
      expect.objectContaining({ made: 'unknown' }),
    ]);
  });
});
