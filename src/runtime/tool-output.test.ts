import { assert, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createVirtualClock } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import { createScriptedModel, textTurn, toolTurn } from '../simulator/scripted-model.js';
import { defineTool } from './define-tool.js';
import type { Harness } from './harness.js';
import { createToolPipeline } from './pipeline.js';
import { runAgent } from './run-agent.js';
import { testRunState } from './testing/run-state.js';
import { resultText } from './tool-output.js';

const circular: Record<string, unknown> = { id: 'ORD1001' };
circular.self = circular;

class Invoice {
  constructor(readonly id: string) {}
  toJSON(): unknown {
    throw new Error('ledger offline');
  }
}

class Order {
  id = 'ORD1001';
  status = 'shipped';
}

/** Values a buggy tool may return that JSON cannot carry (it would throw, or send `{}` or `null` without a word), and what the model is told. */
const unserializable: Array<[string, unknown, string]> = [
  ['a BigInt', { amount: 10n }, 'a BigInt at /amount'],
  ['a circular object', circular, 'a circular reference at /self'],
  ['a Symbol', Symbol('order'), 'a Symbol at the top level'],
  ['a function', () => 'x', 'a function at the top level'],
  ['a nested function', { list: [{ format: () => '' }] }, 'a function at /list/0/format'],
  ['a Map', new Map([['ORD1001', 'shipped']]), 'a Map at the top level'],
  ['a nested Set', { tags: new Set(['vip']) }, 'a Set at /tags'],
  ['a WeakMap', new WeakMap(), 'a WeakMap at the top level'],
  ['NaN', { amount: Number.NaN }, 'NaN at /amount'],
  ['Infinity in an array', [1, Number.POSITIVE_INFINITY], 'Infinity at /1'],
  ['-Infinity', { balance: Number.NEGATIVE_INFINITY }, '-Infinity at /balance'],
  ['an invalid Date', { at: new Date('not a date') }, 'an invalid Date at /at'],
  [
    'a class instance whose toJSON throws',
    { invoice: new Invoice('INV1') },
    'the toJSON of an Invoice at /invoice threw: ledger offline',
  ],
  ['a toJSON that returns a Map', { refund: { toJSON: () => new Map() } }, 'a Map at /refund'],
  ['a toJSON that returns a BigInt', { total: { toJSON: () => 5n } }, 'a BigInt at /total'],
  ['a RegExp', { pattern: /ORD\d+/ }, 'a RegExp at /pattern'],
  ['an Error object', { error: new TypeError('boom') }, 'a TypeError at /error'],
  ['a Promise not awaited', { order: Promise.resolve({ id: 1 }) }, 'a Promise at /order'],
  ['a typed array', { bytes: new Uint8Array([1, 2]) }, 'a Uint8Array at /bytes'],
];

const FIX =
  'a tool must return a plain object or array (or text), so this one is broken: do not retry it, tell the user what you could not look up';

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
      const outcome = await pipeline.run(
        { id: 't1', name: 'get_odd', input: {} },
        testRunState(),
        0,
      );
      assert(outcome.kind === 'result', outcome.kind);
      expect(outcome.record.decision).toBe('failed');
      expect(outcome.result.is_error).toBe(true);
      expect(outcome.result.content).toBe(
        `get_odd failed: its result cannot be sent as JSON (${reason}); ${FIX}`,
      );
    });
  }

  for (const [what, value, reason] of oddThrows) {
    it(`turns a thrown ${what} into a failed decision with a readable reason`, async () => {
      const pipeline = createToolPipeline({ tools: [toolThrowing(value)], validate: true });
      const outcome = await pipeline.run(
        { id: 't1', name: 'get_odd', input: {} },
        testRunState(),
        0,
      );
      assert(outcome.kind === 'result', outcome.kind);
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
  it('sends plain values, class instances with fields and toJSON objects byte for byte as JSON.stringify does', () => {
    const fromJson = JSON.parse('{"__proto__":{"x":1},"b":2}');
    const noPrototype = Object.assign(Object.create(null), { z: 1, a: [2] });
    const values: unknown[] = [
      { id: 'ORD1001', amount: 428, items: [{ sku: 'A', qty: 1 }], note: null, paid: true },
      [1, 'two', { three: [3.5, -0, 1e21, 5e-324] }],
      { b: 1, 2: 'two', a: 1, 1: 'one' },
      fromJson,
      noPrototype,
      { text: 'quote " backslash \\ newline \n ünïcödé \u2028 emoji 🎉 lone \ud800' },
      // biome-ignore lint/suspicious/noSparseArray: an array hole is one of the values tested
      { skipped: undefined, kept: 1, holes: [undefined, 2, , 4] },
      new Order(),
      { at: new Date(0), bytes: Buffer.from('hi') },
      { keyed: { toJSON: (key: string) => `toJSON got ${key}` } },
      [new Number(3), new String('s'), new Boolean(false)],
      0,
      -1.5,
      false,
      null,
      [],
      {},
    ];
    for (const value of values) {
      expect(resultText(value)).toEqual({ ok: true, text: JSON.stringify(value) });
    }
  });

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

// A getter or a Proxy trap that never returns held the whole recording: reading a result is
// now stopped at a deadline, and the call fails closed with a line saying why.
describe('resultText: a result whose reading never ends', () => {
  it('stops a looping getter, Proxy trap or toJSON at the deadline and names it', () => {
    const forever = (): never => {
      for (;;) {
        // spins
      }
    };
    const values: Array<[string, unknown]> = [
      [
        'a getter',
        {
          get total() {
            return forever();
          },
        },
      ],
      ['a Proxy get trap', new Proxy({ a: 1 }, { get: forever })],
      ['a Proxy ownKeys trap', { nested: [new Proxy({}, { ownKeys: forever })] }],
      ['a toJSON', { toJSON: forever }],
    ];
    for (const [what, value] of values) {
      const started = performance.now();
      const text = resultText(value, { deadlineMs: 50 });
      expect(text.ok, what).toBe(false);
      expect(text.ok ? '' : text.reason, what).toContain(
        'reading it ran past 0.05 s and was stopped (does a getter, toJSON or Proxy in it loop forever?)',
      );
      expect(performance.now() - started, what).toBeLessThan(5_000);
    }
  });
});
