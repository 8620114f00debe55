import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { createPermissionPolicy, describeRule, parseRule } from './permissions.js';
import { testRunState } from './testing/run-state.js';
import type { PermissionRule } from './types.js';

const run = testRunState({ runId: 'run-1' });

function decide(rules: PermissionRule[], tool: string, input: Record<string, unknown> = {}) {
  return createPermissionPolicy(rules).decide(tool, input, run);
}

function configErrorOf(action: () => unknown): ConfigError {
  try {
    action();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError, nothing was thrown');
}

describe('createPermissionPolicy', () => {
  describe('rule order', () => {
    it('lets a broad deny beat a specific allow listed before it', () => {
      const decision = decide(
        [
          { effect: 'allow', tool: 'resubmit_refund' },
          { effect: 'deny', tool: '*_refund' },
        ],
        'resubmit_refund',
      );
      expect(decision.effect).toBe('deny');
      expect(decision.rule?.tool).toBe('*_refund');
      expect(decision.reason).toBe('denied by rule deny *_refund');
    });

    it('lets ask beat allow whatever the listing order', () => {
      const decision = decide(
        [
          { effect: 'allow', tool: '*' },
          { effect: 'ask', tool: 'resubmit_refund' },
        ],
        'resubmit_refund',
      );
      expect(decision.effect).toBe('ask');
      expect(decision.reason).toBe('approval required by rule ask resubmit_refund');
    });

    it('lets deny beat ask', () => {
      const decision = decide(
        [
          { effect: 'ask', tool: 'update_*' },
          { effect: 'deny', tool: 'update_*', reason: 'updates are frozen' },
        ],
        'update_order',
      );
      expect(decision).toMatchObject({ effect: 'deny', reason: 'updates are frozen' });
    });

    it('takes the first matching rule within a group', () => {
      const first: PermissionRule = { effect: 'deny', tool: 'update_*', reason: 'first' };
      const second: PermissionRule = { effect: 'deny', tool: 'update_order', reason: 'second' };
      const decision = decide([first, second], 'update_order');
      expect(decision.rule).toBe(first);
      expect(decision.reason).toBe('first');
    });

    it('allows a call only an allow rule matches', () => {
      const decision = decide([{ effect: 'allow', tool: 'get_{order,payment}' }], 'get_payment');
      expect(decision).toMatchObject({
        effect: 'allow',
        reason: 'allowed by rule allow get_{order,payment}',
      });
    });

    it('asks a human when no rule matches', () => {
      const decision = decide([{ effect: 'allow', tool: 'get_*' }], 'resubmit_refund');
      expect(decision).toEqual({
        effect: 'ask',
        rule: undefined,
        reason: "no permission rule matches resubmit_refund; it needs a human's approval",
      });
    });
  });

  describe('argument matchers', () => {
    const rules = [
      parseRule('resubmit_refund(amount>1000)', 'deny'),
      parseRule('resubmit_refund', 'allow'),
    ];

    it('compares numbers numerically with >', () => {
      expect(decide(rules, 'resubmit_refund', { amount: 5000 }).effect).toBe('deny');
      expect(decide(rules, 'resubmit_refund', { amount: 999.5 }).effect).toBe('allow');
      expect(decide(rules, 'resubmit_refund', { amount: 1000 }).effect).toBe('allow');
    });

    it('compares numeric strings as numbers, not as text', () => {
      expect(decide(rules, 'resubmit_refund', { amount: '20000' }).effect).toBe('deny');
      expect(decide(rules, 'resubmit_refund', { amount: '9' }).effect).toBe('allow');
    });

    it('never matches a missing field, not even !=', () => {
      expect(decide(rules, 'resubmit_refund', {}).effect).toBe('allow');
      expect(decide(rules, 'resubmit_refund', { amount: null }).effect).toBe('allow');
      const notEqual = [{ effect: 'deny' as const, tool: '*', when: 'status!=open' }];
      expect(decide(notEqual, 'update_order', {}).effect).toBe('ask');
      expect(decide(notEqual, 'update_order', { status: 'closed' }).effect).toBe('deny');
    });

    it('fails closed: a deny comparison applies to any value it cannot read as a finite number', () => {
      const unreadable = [
        // As the model's JSON arrives: 1e400 parses to Infinity.
        JSON.parse('1e400'),
        JSON.parse('-1e400'),
        Number.NaN,
        [5000],
        { value: 5000 },
        '5,000',
        '0x1388',
        '５０００',
        '1e400',
        '5000 yuan',
        'lots',
        true,
      ];
      for (const amount of unreadable) {
        expect([amount, decide(rules, 'resubmit_refund', { amount }).effect]).toEqual([
          amount,
          'deny',
        ]);
      }
      // The same holds for ask rules, and for every comparison operator.
      for (const when of ['amount>1000', 'amount>=1000', 'amount<1000', 'amount<=1000']) {
        const ask = [
          { effect: 'ask' as const, tool: '*', when },
          { effect: 'allow' as const, tool: '*' },
        ];
        expect(decide(ask, 'transfer', { amount: '0x1388' }).effect).toBe('ask');
      }
    });

    it('never lets an allow comparison allow a value it cannot read as a finite number', () => {
      const allowSmall = [{ effect: 'allow' as const, tool: 'transfer', when: 'amount<1000' }];
      for (const amount of [JSON.parse('-1e400'), [5], { value: 5 }, '5,0', '0x5', '５', 'NaN']) {
        expect(decide(allowSmall, 'transfer', { amount }).effect).toBe('ask');
      }
      expect(decide(allowSmall, 'transfer', { amount: 5 }).effect).toBe('allow');
      expect(decide(allowSmall, 'transfer', { amount: ' 5.5 ' }).effect).toBe('allow');
    });

    it('refuses a rule whose own number is not finite', () => {
      expect(
        configErrorOf(() => createPermissionPolicy([parseRule('t(amount>1e400)', 'deny')])).message,
      ).toContain("'1e400' is not a number");
    });

    it('supports >=, < and <= at their boundaries', () => {
      const at = (when: string, amount: number) =>
        decide([{ effect: 'deny', tool: '*', when }], 'refund', { amount }).effect;
      expect(at('amount>=1000', 1000)).toBe('deny');
      expect(at('amount<10', 10)).toBe('ask');
      expect(at('amount<=10', 10)).toBe('deny');
      expect(at('amount>-5', 0)).toBe('deny');
    });

    it('matches ~ as a case-insensitive substring, keeping a trailing space meaningful', () => {
      const danger = [{ effect: 'deny' as const, tool: 'run_sql', when: 'query~drop ' }];
      expect(decide(danger, 'run_sql', { query: 'DROP TABLE orders' }).effect).toBe('deny');
      expect(decide(danger, 'run_sql', { query: 'select dropdown from ui' }).effect).toBe('ask');
      const shell = [parseRule('bash(command~"rm -rf")', 'deny')];
      expect(decide(shell, 'bash', { command: 'cd /tmp && RM -RF /' }).effect).toBe('deny');
    });

    it('matches = as a picomatch glob on strings and exactly on numbers', () => {
      const rules = [{ effect: 'deny' as const, tool: '*', when: 'order_id=ORD5*' }];
      expect(decide(rules, 'get_order', { order_id: 'ORD5001' }).effect).toBe('deny');
      expect(decide(rules, 'get_order', { order_id: 'ORD1001' }).effect).toBe('ask');
      const exact = [{ effect: 'deny' as const, tool: '*', when: 'amount=1000' }];
      expect(decide(exact, 'refund', { amount: 1000.0 }).effect).toBe('deny');
      expect(decide(exact, 'refund', { amount: 10000 }).effect).toBe('ask');
    });

    it('requires every condition joined by && to hold', () => {
      const rules = [parseRule('resubmit_refund(amount > 100 && order_id = ORD5*)', 'deny')];
      expect(decide(rules, 'resubmit_refund', { amount: 500, order_id: 'ORD5001' }).effect).toBe(
        'deny',
      );
      expect(decide(rules, 'resubmit_refund', { amount: 500, order_id: 'ORD1001' }).effect).toBe(
        'ask',
      );
      expect(decide(rules, 'resubmit_refund', { amount: 50, order_id: 'ORD5001' }).effect).toBe(
        'ask',
      );
    });

    it('reads nested fields through a dotted path', () => {
      const rules = [{ effect: 'deny' as const, tool: '*', when: 'customer.country=XX' }];
      expect(decide(rules, 'update_customer', { customer: { country: 'XX' } }).effect).toBe('deny');
      // A wrong type past the first field cannot be read: a deny rule fails closed.
      expect(decide(rules, 'update_customer', { customer: 'XX' }).effect).toBe('deny');
    });
  });

  describe('predicate rules', () => {
    it('passes the input and the run to the predicate', () => {
      const seen: unknown[] = [];
      const rules: PermissionRule[] = [
        {
          effect: 'deny',
          tool: 'resubmit_refund',
          when: (input, state) => {
            seen.push(input, state.runId);
            return state.history.length === 0 && input.amount === 7;
          },
        },
      ];
      expect(decide(rules, 'resubmit_refund', { amount: 7 }).effect).toBe('deny');
      expect(decide(rules, 'resubmit_refund', { amount: 8 }).effect).toBe('ask');
      expect(seen).toEqual([{ amount: 7 }, 'run-1', { amount: 8 }, 'run-1']);
    });

    it('applies a deny rule whose predicate throws (fail closed) but skips such an allow rule', () => {
      const broken = () => {
        throw new Error('boom');
      };
      const deny = decide([{ effect: 'deny', tool: '*', when: broken }], 'update_order');
      expect(deny.effect).toBe('deny');
      expect(deny.reason).toContain('boom');
      expect(decide([{ effect: 'allow', tool: '*', when: broken }], 'update_order').effect).toBe(
        'ask',
      );
    });

    // Evals do not type-check: an async predicate, `amount > 1000 || flags.length` (a number)
    // or a list reach the policy at run time. A deny rule must not fail open on them.
    it.each([
      ['an async predicate (a promise)', async () => true],
      ['a number', () => 1],
      ['a list', () => ['x']],
      ['text', () => 'yes'],
      ['undefined', () => undefined],
    ])(
      'treats a predicate returning %s as broken: deny and ask apply, allow does not',
      (what, predicate) => {
        const when = predicate as unknown as () => boolean;
        const deny = decide(
          [
            { effect: 'deny', tool: 'refund', when },
            { effect: 'allow', tool: '*' },
          ],
          'refund',
        );
        expect(deny.effect).toBe('deny');
        expect(deny.reason).toContain('must return true or false');
        expect(deny.reason).toContain(what.includes('promise') ? 'a promise' : 'returned');
        expect(decide([{ effect: 'ask', tool: 'refund', when }], 'refund').reason).toContain(
          'must return true or false',
        );
        const allow = decide([{ effect: 'allow', tool: 'refund', when }], 'refund');
        expect(allow.effect).toBe('ask');
        expect(allow.rule).toBeUndefined();
      },
    );

    it('still applies a predicate returning false or true as it says', () => {
      const rules = (when: () => boolean): PermissionRule[] => [
        { effect: 'deny', tool: 'refund', when },
        { effect: 'allow', tool: '*' },
      ];
      expect(
        decide(
          rules(() => false),
          'refund',
        ).effect,
      ).toBe('allow');
      expect(
        decide(
          rules(() => true),
          'refund',
        ).effect,
      ).toBe('deny');
    });
  });

  describe('validation when loaded', () => {
    it('rejects an invalid picomatch pattern, naming the rule by index and text', () => {
      const error = configErrorOf(() =>
        createPermissionPolicy([
          { effect: 'allow', tool: 'get_*' },
          { effect: 'deny', tool: 'update_[order' },
        ]),
      );
      expect(error.message).toContain('permissions[1] "deny update_[order" is invalid');
      expect(error.message).toContain('fix the glob');
    });

    it('rejects an empty tool glob', () => {
      const error = configErrorOf(() => createPermissionPolicy([{ effect: 'allow', tool: ' ' }]));
      expect(error.message).toMatch(/permissions\[0\].*tool glob is empty.*'\*' for every tool/);
    });

    it('rejects an unknown effect and says which effects exist', () => {
      const rule = { effect: 'block', tool: 'update_*' } as unknown as PermissionRule;
      const error = configErrorOf(() => createPermissionPolicy([rule]));
      expect(error.message).toContain(
        `permissions[0] "block update_*" is invalid: unknown effect 'block'; use allow, ask or deny`,
      );
    });

    it.each([
      ['amount>', 'has no value'],
      ['amount>lots', "'lots' is not a number"],
      ['amount', 'cannot read condition'],
      ['amount>1 &&', 'ends with &&'],
      ['amount>1 || amount<0', 'only && is supported'],
      ['status==open', "use a single '='"],
      ['note~"unclosed', 'never closes'],
      ['order_id=ORD[5', 'does not parse'],
    ])('rejects the unparsable condition %s', (when, problem) => {
      const error = configErrorOf(() =>
        createPermissionPolicy([{ effect: 'deny', tool: 'resubmit_refund', when }]),
      );
      expect(error.message).toContain(`permissions[0] "deny resubmit_refund(${when})" is invalid`);
      expect(error.message).toContain(problem);
    });
  });
});

describe('parseRule', () => {
  it('reads the tool(condition) string form', () => {
    expect(parseRule('resubmit_refund(amount>1000)', 'deny')).toEqual({
      effect: 'deny',
      tool: 'resubmit_refund',
      when: 'amount>1000',
    });
  });

  it('reads a bare tool glob and keeps a reason', () => {
    expect(parseRule(' update_* ', 'ask', 'writes need a human')).toEqual({
      effect: 'ask',
      tool: 'update_*',
      reason: 'writes need a human',
    });
  });

  it('rejects malformed text, naming it', () => {
    expect(() => parseRule('resubmit_refund(amount>1000', 'deny')).toThrow(
      /permission rule "resubmit_refund\(amount>1000" is invalid/,
    );
    expect(() => parseRule('resubmit_refund()', 'deny')).toThrow(/parentheses are empty/);
    expect(() => parseRule('resubmit_refund(amount>)', 'deny')).toThrow(ConfigError);
  });
});

describe('describeRule', () => {
  it('writes a rule as one line, naming a predicate', () => {
    function isLargeRefund() {
      return true;
    }
    expect(describeRule({ effect: 'deny', tool: 'update_*' })).toBe('deny update_*');
    expect(describeRule({ effect: 'ask', tool: 'refund', when: 'amount>5' })).toBe(
      'ask refund(amount>5)',
    );
    expect(describeRule({ effect: 'deny', tool: 'refund', when: isLargeRefund })).toBe(
      'deny refund(<isLargeRefund>)',
    );
  });
});
