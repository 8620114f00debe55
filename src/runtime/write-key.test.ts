import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createVirtualClock } from '../core/clock.js';
import { WriteNotMadeError } from '../core/errors.js';
import { redactValue } from '../core/redact.js';
import { defineTool } from './define-tool.js';
import { durablePipeline } from './testing/durable-pipeline.js';
import { testRunState } from './testing/run-state.js';
import type { ToolDefinition } from './types.js';
import { createKeyedLock, idempotencyKeyFor } from './write-key.js';

const run = testRunState({
  runId: 'run-7',
  step: 2,
  mode: 'interactive',
  clock: createVirtualClock({ start: Date.parse('2026-10-01T09:00:00Z') }),
});

const executed: unknown[] = [];
const contexts: Array<string | undefined> = [];
const pay = defineTool({
  name: 'pay',
  description: 'Pay an invoice',
  effect: 'write',
  parameters: z.object({ invoice: z.string(), note: z.string() }),
  idempotencyKey: ({ invoice }) => `${invoice}:pay`,
  execute: (args, { idempotencyKey }) => {
    executed.push(args);
    contexts.push(idempotencyKey);
    return { paid: args.invoice };
  },
});
const note = defineTool({
  name: 'note',
  description: 'Write a note',
  effect: 'write',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

describe('idempotencyKeyFor', () => {
  it('uses the business key when the tool declares one', () => {
    expect(idempotencyKeyFor(pay as ToolDefinition, { invoice: 'INV-1', note: 'a' }, run)).toBe(
      'pay:INV-1:pay',
    );
  });

  it('hashes the canonical arguments otherwise: key order does not matter, values do', () => {
    const tool = note as ToolDefinition;
    const key = idempotencyKeyFor(tool, { text: 'x' }, run);
    expect(key).toMatch(/^note:[0-9a-f]{16}$/);
    expect(idempotencyKeyFor(tool, { text: 'y' }, run)).not.toBe(key);
  });

  it('hashes a business key holding a card number, so the key printed and traced (redacted) still names it', () => {
    const byCard = pay as ToolDefinition;
    const args = { invoice: '6222020200112233445', note: 'a' };
    const key = idempotencyKeyFor(byCard, args, run);
    expect(key).toMatch(/^pay:[0-9a-f]{16}$/);
    expect(redactValue({ key })).toEqual({ key });
    expect(idempotencyKeyFor(byCard, { invoice: '6222020200112233452', note: 'a' }, run)).not.toBe(
      key,
    );
  });
});

describe('idempotencyKeyFor on a hash that looks like a card number', () => {
  const save = defineTool({
    name: 'save_note',
    description: 'Save a note',
    effect: 'write',
    parameters: z.object({ note: z.string() }),
    execute: ({ note }) => {
      saved.push(note);
      return `saved ${note}`;
    },
  }) as ToolDefinition;
  const saved: string[] = [];

  it('gives a key redaction leaves alone, and keeps every other key as it was', () => {
    // The hash of this note is all digits and passes the card rule: save_note:5847656744505590.
    const key = idempotencyKeyFor(save, { note: 'n33951' }, run);
    expect(redactValue({ key })).toEqual({ key });
    expect(key).toBe('save_note:5847656744505590z');
    expect(idempotencyKeyFor(save, { note: 'n1' }, run)).toBe('save_note:a2a453c52b2e7f33');
  });

  it('refuses to make a key for a tool whose name the redaction masks, naming the fix', () => {
    const named = { ...save, name: '4111111111111111' } as ToolDefinition;
    expect(() => idempotencyKeyFor(named, { note: 'a' }, run)).toThrow(/rename the tool$/);
  });
});

describe('createKeyedLock', () => {
  it('holds one key at a time, in order, and other keys at once', async () => {
    const lock = createKeyedLock();
    const order: string[] = [];
    const first = await lock('a');
    const second = lock('a').then((release) => {
      order.push('a2');
      release();
    });
    const other = lock('b').then((release) => {
      order.push('b');
      release();
    });
    await other;
    expect(order).toEqual(['b']);
    order.push('a1');
    first();
    await second;
    expect(order).toEqual(['b', 'a1', 'a2']);
  });
});

describe('the pipeline with a durable journal', () => {
  it('runs a write once, hands the tool its run-scoped key, and answers the same write from the journal', async () => {
    executed.length = 0;
    contexts.length = 0;
    const desk = await durablePipeline({ tools: [pay as ToolDefinition] });
    const turn = [
      { id: 'toolu_1', name: 'pay', input: { invoice: 'INV-1', note: 'a' } },
      { id: 'toolu_2', name: 'pay', input: { invoice: 'INV-1', note: 'again' } },
    ];
    const outcomes = await desk.pipeline.runAll(turn, [0, 1], await desk.turn(turn));
    expect(executed).toEqual([{ invoice: 'INV-1', note: 'a' }]);
    expect(contexts).toEqual(['run-7/pay:INV-1:pay']);
    expect(
      outcomes.map(
        (outcome) =>
          outcome.kind === 'result' && [outcome.result.content, outcome.record.replayed ?? false],
      ),
    ).toEqual([
      ['{"paid":"INV-1"}', false],
      ['{"paid":"INV-1"}', true],
    ]);
  });

  it('keeps a write whose tool threw as of unknown outcome (a 502 after the commit): the next identical call does not run it', async () => {
    let attempts = 0;
    const flaky = defineTool({
      name: 'flaky',
      description: 'Fails once',
      effect: 'write',
      parameters: z.object({}),
      execute: () => {
        attempts += 1;
        if (attempts === 1) throw new Error('502 from the ledger');
        return 'booked';
      },
    }) as ToolDefinition;
    const desk = await durablePipeline({ tools: [flaky] });
    const results: string[] = [];
    for (const id of ['toolu_1', 'toolu_2']) {
      const outcome = await desk.call({ id, name: 'flaky', input: {} });
      if (outcome.kind === 'result') results.push(outcome.result.content);
    }
    expect(results[0]).toMatch(
      /^flaky failed: 502 from the ledger\. It may already have taken effect: its outcome is unknown/,
    );
    expect(results[1]).toMatch(/already started in this run .* its outcome is unknown/);
    expect(attempts).toBe(1);
  });

  it('frees the key of a write whose tool says it was not made (WriteNotMadeError): the next identical call runs it', async () => {
    let attempts = 0;
    const flaky = defineTool({
      name: 'flaky',
      description: 'Refused once',
      effect: 'write',
      parameters: z.object({}),
      execute: () => {
        attempts += 1;
        if (attempts === 1) throw new WriteNotMadeError('the ledger refused it before booking');
        return 'booked';
      },
    }) as ToolDefinition;
    const desk = await durablePipeline({ tools: [flaky] });
    const results: string[] = [];
    for (const id of ['toolu_1', 'toolu_2']) {
      const outcome = await desk.call({ id, name: 'flaky', input: {} });
      if (outcome.kind === 'result') results.push(outcome.result.content);
    }
    expect(results).toEqual(['flaky failed: the ledger refused it before booking', 'booked']);
    expect(attempts).toBe(2);
  });
});
