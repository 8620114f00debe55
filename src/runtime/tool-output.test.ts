import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createVirtualClock } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import { defineTool } from './define-tool.js';
import type { Harness } from './harness.js';
import { createToolPipeline } from './pipeline.js';
import { runAgent } from './run-agent.js';
import { testRunState } from './testing/run-state.js';
import { createScriptedModel, textTurn, toolTurn } from './testing/scripted-model.js';
import { resultText } from './tool-output.js';

const circular: Record<string, unknown> = { id: 'ORD1001' };
circular.self = circular;

/** Values a buggy tool may return that JSON cannot carry, and what the model is told. */
const unserializable: Array<[string, unknown, string]> = [
  ['a BigInt', { amount: 10n }, 'a BigInt at /amount'],
  ['a circular object', circular, 'a circular reference at /self'],
  ['a Symbol', Symbol('order'), 'a Symbol at the top level'],
  ['a function', () => 'x', 'a function at the top level'],
  ['a nested function', { list: [{ format: () => '' }] }, 'a function at /list/0/format'],
];

/** Things a tool may throw besides an Error, and the reason the model reads. */
const oddThrows: Array<[string, unknown, string]> = [
  ['object with a message', { message: 'payment system offline' }, 'payment system offline'],
  ['object without a prototype', Object.create(null), 'it threw an object without a message'],
  ['string', 'bank said no', 'bank said no'],
  ['undefined', undefined, 'it threw undefined (no error message)'],
  ['null', null, 'it threw null (no error message)'],
  ['Error without a message', new TypeError(''), 'TypeError without a message'],
  ['number', 42, 'it threw 42'],
];

function toolReturning(value: unknown) {
  return defineTool({
    name: 'get_odd',
    description: 'Returns an odd value',
    effect: 'read',
    parameters: z.object({}),
    execute: () => value,
  });
}

function toolThrowing(value: unknown) {
  return defineTool({
    name: 'get_odd',
    description: 'Throws an odd value',
    effect: 'read',
    parameters: z.object({}),
    execute: () => {
      throw value;
    },
  });
}

describe('tool results and thrown values the model cannot be sent as they are', () => {
  for (const [what, value, reason] of unserializable) {
    it(`turns ${what} in a result into a failed decision with a readable reason`, async () => {
      const pipeline = createToolPipeline({ tools: [toolReturning(value)], validate: true });
      const outcome = await pipeline.run({ id: 't1', name: 'get_odd', input: {} }, testRunState());
      expect(outcome.record.decision).toBe('failed');
      expect(outcome.result.is_error).toBe(true);
      expect(outcome.result.content).toContain(
        `get_odd failed: its result cannot be sent as JSON (${reason})`,
      );
    });
  }

  for (const [what, value, reason] of oddThrows) {
    it(`turns a thrown ${what} into a failed decision with a readable reason`, async () => {
      const pipeline = createToolPipeline({ tools: [toolThrowing(value)], validate: true });
      const outcome = await pipeline.run({ id: 't1', name: 'get_odd', input: {} }, testRunState());
      expect(outcome.record.decision).toBe('failed');
      expect(outcome.result).toMatchObject({
        is_error: true,
        content: `get_odd failed: ${reason}`,
      });
    });
  }

  it('keeps the run going: the model reads the reason and answers', async () => {
    const harness: Harness = {
      name: 'odd',
      tools: [toolThrowing(Object.create(null)), toolReturning(10n)].map((tool, index) => ({
        ...tool,
        name: index === 0 ? 'get_thrower' : 'get_bigint',
      })) as never,
      system: () => 'Test.',
      validate: true,
      limits: { maxSteps: 4 },
    };
    const model = createScriptedModel([
      toolTurn([
        { name: 'get_thrower', input: {} },
        { name: 'get_bigint', input: {} },
      ]),
      textTurn('The order system is broken; a human will follow up.'),
    ]);
    const result = await runAgent({
      harness,
      model,
      modelId: 'm',
      prompt: 'go',
      clock: createVirtualClock({ start: 0 }),
      mode: 'unattended',
    });
    model.assertDone();
    expect(result.status).toBe('done');
    expect(result.toolCalls.map((call) => call.decision)).toEqual(['failed', 'failed']);
    const sent = JSON.stringify(model.requests[1]?.messages.at(-1));
    expect(sent).toContain('get_thrower failed: it threw an object without a message');
    expect(sent).toContain(
      'get_bigint failed: its result cannot be sent as JSON (a BigInt at the top level)',
    );
  });
});

describe('resultText and errorMessage', () => {
  it('keeps strings, marks no output and serializes plain values and toJSON objects', () => {
    expect(resultText('plain')).toEqual({ ok: true, text: 'plain' });
    expect(resultText(undefined)).toEqual({ ok: true, text: '(no output)' });
    expect(resultText({ at: new Date(0), list: [1, null] })).toEqual({
      ok: true,
      text: '{"at":"1970-01-01T00:00:00.000Z","list":[1,null]}',
    });
    // The same object twice is not a cycle.
    const shared = { a: 1 };
    expect(resultText({ x: shared, y: shared })).toEqual({
      ok: true,
      text: '{"x":{"a":1},"y":{"a":1}}',
    });
  });

  it('never throws, even on a value whose message getter throws', () => {
    const hostile = {
      get message(): string {
        throw new Error('gotcha');
      },
    };
    expect(errorMessage(hostile)).toBe('it threw a value that cannot be read');
    expect(errorMessage({ code: 7 })).toBe('it threw {"code":7}');
  });

  it('never throws on a result whose getter, toJSON lookup or Proxy trap throws', () => {
    const getter = {
      get total(): number {
        throw new Error('getter boom');
      },
    };
    const toJSONGetter = {
      get toJSON(): () => unknown {
        throw new Error('toJSON lookup boom');
      },
    };
    const proxy = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('ownKeys boom');
        },
      },
    );
    for (const [value, expected] of [
      [getter, 'getter boom'],
      [toJSONGetter, 'toJSON lookup boom'],
      [proxy, 'ownKeys boom'],
      [{ nested: [proxy] }, 'ownKeys boom'],
    ] as const) {
      const text = resultText(value);
      expect(text.ok).toBe(false);
      expect(text.ok ? '' : text.reason).toContain(expected);
    }
  });
});
