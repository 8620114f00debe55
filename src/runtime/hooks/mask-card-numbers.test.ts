import { describe, expect, it } from 'vitest';
import { maskCardNumber } from '../../core/card-numbers.js';
import { testRunState } from '../testing/run-state.js';
import { maskCardNumbers } from './mask-card-numbers.js';

const run = testRunState({ runId: 'run-1' });

describe('maskCardNumbers', () => {
  it('masks a 19-digit card number in a tool result to first 4 + **** + last 4', async () => {
    const hook = maskCardNumbers();
    const output = '{"order_id":"ORD1001","card":"6222020200112233445","amount":120.5}';
    expect(await hook({ id: 'toolu_1', name: 'get_payment', input: {} }, output, run)).toBe(
      '{"order_id":"ORD1001","card":"6222****3445","amount":120.5}',
    );
  });

  it('masks every card number, at the 12- and 19-digit edges', () => {
    expect(maskCardNumber('a 412345678905 b 4111111111111111 c 4123456789012345677')).toBe(
      'a 4123****8905 b 4111****1111 c 4123****5677',
    );
  });

  it('leaves short digit runs such as dates, amounts and order ids untouched', () => {
    const text = 'refund 1200.50 on 2026-09-15 for ORD1001, phone 13800138000';
    expect(maskCardNumber(text)).toBe(text);
  });

  it('leaves a digit run longer than 19 digits untouched rather than masking part of it', () => {
    const text = 'trace 12345678901234567890';
    expect(maskCardNumber(text)).toBe(text);
  });
});
