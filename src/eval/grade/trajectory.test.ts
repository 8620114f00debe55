import { describe, expect, it } from 'vitest';
import { expectTrajectory, matchTrajectory } from './trajectory.js';

const call = (tool: string, input: unknown, step = 1) => ({ tool, input, step });
const order = call('get_order', { order_id: 'ORD1001' }, 1);
const payment = call('get_payment', { order_id: 'ORD1001' }, 1);
const resubmit = call('resubmit_refund', { order_id: 'ORD1001', reason: 'new account' }, 2);
const want = {
  order: { tool: 'get_order', input: { order_id: 'ORD1001' } },
  payment: { tool: 'get_payment', input: { order_id: 'ORD1001' } },
  resubmit: { tool: 'resubmit_refund', input: { order_id: 'ORD1001' } },
};

describe('matchTrajectory order modes', () => {
  it('strict: the same calls in the same order and nothing else', () => {
    expect(matchTrajectory([order, payment], [want.order, want.payment]).pass).toBe(true);
    const swapped = matchTrajectory([payment, order], [want.order, want.payment]);
    expect(swapped.pass).toBe(false);
    expect(swapped.message).toBe(
      'step 1 (model turn 1): expected get_order{"order_id":"ORD1001"}, got get_payment{"order_id":"ORD1001"}',
    );
    const extra = matchTrajectory([order, payment, resubmit], [want.order, want.payment]);
    expect(extra.message).toBe(
      'step 3 (model turn 2): expected no more calls, got resubmit_refund{"order_id":"ORD1001","reason":"new account"}',
    );
    expect(matchTrajectory([order], [want.order, want.payment]).message).toBe(
      'step 2: expected get_payment{"order_id":"ORD1001"}, got no call',
    );
  });

  it('in_order: the expected calls in their order, others in between allowed', () => {
    const calls = [order, call('get_order', { order_id: 'ORD9' }), payment];
    expect(matchTrajectory(calls, [want.order, want.payment], { order: 'in_order' }).pass).toBe(
      true,
    );
    const late = matchTrajectory([payment, order], [want.payment, want.resubmit], {
      order: 'in_order',
    });
    expect(late.message).toBe(
      'expected resubmit_refund{"order_id":"ORD1001"} after step 1 (model turn 1); step 2 (model turn 1) was get_order{"order_id":"ORD1001"}',
    );
  });

  it('unordered: the same calls in any order, nothing missing and nothing extra', () => {
    const options = { order: 'unordered' as const };
    expect(matchTrajectory([payment, order], [want.order, want.payment], options).pass).toBe(true);
    expect(
      matchTrajectory([payment, order, resubmit], [want.order, want.payment], options).message,
    ).toMatch(/^step 3 \(model turn 2\): resubmit_refund.* was not expected$/);
    expect(matchTrajectory([payment], [want.order, want.payment], options).message).toBe(
      'expected get_order{"order_id":"ORD1001"}, which was not called',
    );
  });

  it('superset: every expected call, extras allowed; subset: only expected calls, some may be missing', () => {
    const calls = [payment, order, resubmit];
    expect(matchTrajectory(calls, [want.order], { order: 'superset' }).pass).toBe(true);
    expect(matchTrajectory([payment], [want.order], { order: 'superset' }).pass).toBe(false);
    expect(matchTrajectory([order], [want.order, want.payment], { order: 'subset' }).pass).toBe(
      true,
    );
    expect(matchTrajectory(calls, [want.order, want.payment], { order: 'subset' }).pass).toBe(
      false,
    );
  });

  it('names the closest call when an expected one was made with other arguments', () => {
    const other = call('get_order', { order_id: 'ORD1002' }, 3);
    expect(matchTrajectory([other], [want.order], { order: 'superset' }).message).toBe(
      'expected get_order{"order_id":"ORD1001"}, which was not called; the closest, step 1 (model turn 3), was get_order{"order_id":"ORD1002"} (its arguments differ)',
    );
  });

  it('reads the calls of adapter agents (name) as well as this runtime (tool)', () => {
    const calls = [{ name: 'get_order', input: { order_id: 'ORD1001' } }];
    expect(matchTrajectory(calls, [want.order]).pass).toBe(true);
  });
});

describe('matchTrajectory arguments', () => {
  const calls = [resubmit];
  it('exact compares the whole input, key order aside', () => {
    expect(matchTrajectory(calls, [want.resubmit]).pass).toBe(false);
    const reordered = {
      tool: 'resubmit_refund',
      input: { reason: 'new account', order_id: 'ORD1001' },
    };
    expect(matchTrajectory(calls, [reordered]).pass).toBe(true);
  });

  it('superset: the expected keys with their values; subset: no key beyond the expected ones', () => {
    expect(matchTrajectory(calls, [want.resubmit], { args: 'superset' }).pass).toBe(true);
    expect(matchTrajectory(calls, [want.resubmit], { args: 'subset' }).pass).toBe(false);
    const wider = {
      tool: 'resubmit_refund',
      input: { order_id: 'ORD1001', reason: 'new account', amount: 428 },
    };
    expect(matchTrajectory(calls, [wider], { args: 'subset' }).pass).toBe(true);
  });

  it('ignore matches by tool name; an expected call without input ignores arguments too', () => {
    expect(
      matchTrajectory(calls, [{ tool: 'resubmit_refund', input: { x: 1 } }], { args: 'ignore' })
        .pass,
    ).toBe(true);
    expect(matchTrajectory(calls, [{ tool: 'resubmit_refund' }]).pass).toBe(true);
  });

  it('a per-tool mode overrides the default, and a function decides for itself', () => {
    const options = { toolArgs: { resubmit_refund: 'superset' as const } };
    expect(matchTrajectory([order, resubmit], [want.order, want.resubmit], options).pass).toBe(
      true,
    );
    const startsWith = (expected: unknown, actual: unknown) =>
      String((actual as { reason: string }).reason).startsWith(
        String((expected as { reason: string }).reason),
      );
    expect(
      matchTrajectory(calls, [{ tool: 'resubmit_refund', input: { reason: 'new' } }], {
        args: startsWith,
      }).pass,
    ).toBe(true);
  });

  it('fuzzy: case, whitespace, numeric tolerance and array order do not count', () => {
    const actual = [
      call('search', { query: '  Refund  STATUS ', amount: 428.0004, tags: ['b', 'a'] }),
    ];
    const expected = [
      { tool: 'search', input: { query: 'refund status', amount: '428', tags: ['a', 'b'] } },
    ];
    expect(matchTrajectory(actual, expected, { args: 'fuzzy' }).pass).toBe(true);
    expect(matchTrajectory(actual, expected, { args: 'fuzzy', tolerance: 0.0001 }).pass).toBe(
      false,
    );
    const other = [{ tool: 'search', input: { query: 'refund statuses' } }];
    expect(matchTrajectory(actual, other, { args: 'fuzzy' }).pass).toBe(false);
  });
});

describe('matchTrajectory counts, allow and deny lists, partial credit', () => {
  it('counts per tool or glob, with the steps named', () => {
    const calls = [order, payment, payment, payment];
    const match = matchTrajectory(calls, [], {
      order: 'superset',
      counts: { get_payment: { max: 2 }, 'get_*': { min: 1 }, resubmit_refund: { min: 1 } },
    });
    expect(match.problems).toEqual([
      'get_payment was called 3 times (steps 2, 3, 4); at most 2 allowed',
      'resubmit_refund was called 0 times; at least 1 expected',
    ]);
  });

  it('deny refuses any matching call; allow refuses any call outside it', () => {
    const calls = [order, resubmit];
    expect(matchTrajectory(calls, [], { order: 'superset', deny: ['resubmit_*'] }).message).toBe(
      'step 2 (model turn 2): resubmit_refund is denied (deny: resubmit_*)',
    );
    expect(matchTrajectory(calls, [], { order: 'superset', allow: ['get_*'] }).message).toBe(
      'step 2 (model turn 2): resubmit_refund is not allowed (allow: get_*)',
    );
    expect(matchTrajectory([order], [], { order: 'superset', allow: ['get_*'] }).pass).toBe(true);
  });

  it('precision, recall and F1 over calls; a threshold on F1 adds its own condition', () => {
    const match = matchTrajectory([order, resubmit], [want.order, want.payment], {
      order: 'unordered',
    });
    expect([match.precision, match.recall, match.f1]).toEqual([0.5, 0.5, 0.5]);
    const lenient = matchTrajectory([order, payment, resubmit], [want.order, want.payment], {
      order: 'superset',
      threshold: 0.9,
    });
    expect(lenient.f1).toBeCloseTo(0.8, 10);
    expect(lenient.pass).toBe(false);
    expect(lenient.message).toBe('F1 0.80 is below the threshold 0.90');
    expect(matchTrajectory([], []).f1).toBe(1);
  });

  it('ordered modes give partial credit by the longest common subsequence', () => {
    const match = matchTrajectory([payment, order], [want.order, want.payment]);
    expect(match.f1).toBe(0.5);
    expect(match.score).toBe(0.5);
  });
});

describe('matchTrajectory refuses options that would match wrongly', () => {
  it.each([
    [{ order: 'ordered' }, 'order is "ordered": use strict, in_order, unordered, subset, superset'],
    [{ args: 'loose' }, 'args is "loose"'],
    [{ toolArgs: { get_order: 'almost' } }, 'toolArgs.get_order is "almost"'],
    [{ tolerance: -1 }, 'tolerance -1 is not a number >= 0'],
    [{ counts: { get_order: { max: -1 } } }, 'counts.get_order.max -1 is not a whole number >= 0'],
    [{ counts: { get_order: { min: 3, max: 1 } } }, 'counts.get_order: min 3 is above max 1'],
    [{ deny: 'resubmit_*' }, 'deny must be a list of tool names or globs'],
    [{ threshold: 80 }, 'threshold 80 is not a number from 0 to 1'],
  ])('%j', (options, message) => {
    expect(() => matchTrajectory([order], [want.order], options as never)).toThrow(message);
  });

  it('refuses expected calls without a tool name and actual calls that are not a list', () => {
    expect(() => matchTrajectory([order], [{ input: {} } as never])).toThrow(
      'expected[0] needs a tool name',
    );
    expect(() => matchTrajectory(undefined as never, [])).toThrow(
      'the actual calls must be a list',
    );
  });
});

describe('expectTrajectory', () => {
  it('throws an AssertionError naming the first diverging step, and returns the match otherwise', () => {
    expect(expectTrajectory([order], [want.order]).pass).toBe(true);
    let thrown: unknown;
    try {
      expectTrajectory([payment], [want.order], { name: 'lookups' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).name).toBe('AssertionError');
    expect((thrown as Error).message).toBe(
      'lookups: step 1 (model turn 1): expected get_order{"order_id":"ORD1001"}, got get_payment{"order_id":"ORD1001"}',
    );
  });
});
