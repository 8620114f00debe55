import { describe, expect, it } from 'vitest';
import { createPermissionPolicy, parseRule } from '../runtime/permissions.js';
import { testRunState } from '../runtime/testing/run-state.js';
import { resubmitRefund } from './tools.js';
import { REFUND_DESK_RULES } from './variants.js';

const run = testRunState();

describe("the README's permission examples on the shipped refund tools", () => {
  it('resubmit_refund(reason~fraud) reads an argument the tool really takes, and fires', () => {
    const input = { order_id: 'ORD1001', reason: 'possible fraud on the new account' };
    expect(resubmitRefund.parameters.safeParse(input).success).toBe(true);
    const policy = createPermissionPolicy([parseRule('resubmit_refund(reason~fraud)', 'deny')]);
    expect(policy.decide('resubmit_refund', input, run).effect).toBe('deny');
    expect(
      policy.decide('resubmit_refund', { order_id: 'ORD1001', reason: 'account fixed' }, run)
        .effect,
    ).toBe('ask');
  });

  it("the refund desk's amount rule is a predicate on the order and denies ORD5005 (1299.00), not ORD1001", () => {
    const policy = createPermissionPolicy(REFUND_DESK_RULES);
    const decide = (order_id: string) =>
      policy.decide('resubmit_refund', { order_id, reason: 'account fixed' }, run);
    expect(decide('ORD5005').effect).toBe('deny');
    expect(decide('ORD5005').reason).toMatch(/over 1000 yuan/);
    expect(decide('ORD1001').effect).toBe('ask');
  });
});
