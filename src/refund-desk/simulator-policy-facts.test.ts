import { describe, expect, it } from 'vitest';
import type { ToolExchange } from '../simulator/request.js';
import {
  classify,
  maskAccount,
  readOrderState,
  readPaymentState,
  readRules,
  readToday,
} from './simulator-policy-facts.js';

const exchange = (name: string, text: string, isError = false): ToolExchange => ({
  id: `toolu_${name}`,
  name,
  input: { order_id: 'ORD1001' },
  turn: 0,
  result: { text, isError },
});

describe('classify', () => {
  it.each([
    ['{"status":"completed"}', false, 'ok'],
    ['{"refund_note":"waiting for approval"}', false, 'ok'],
    [
      'get_order failed: order ORD3003 does not exist; ask the user to check the order number (example: ORD1001)',
      true,
      'not_found',
    ],
    [
      'Error: no payment record for ORD2002; it may be cash on delivery or not yet synced',
      false,
      'missing',
    ],
    ['Error: payment system connection timed out', false, 'failed'],
    ['get_payment timed out after 3000 ms and was cancelled; try later', true, 'failed'],
    ['resubmit_refund needs approval; unattended mode, not executed', true, 'refused'],
    ['The user declined resubmit_refund', true, 'refused'],
    ['Blocked by hook: get_payment was already called with the same input', true, 'blocked'],
  ] as const)('reads %j as %s', (text, isError, kind) => {
    expect(classify(exchange('get_payment', text, isError))).toBe(kind);
  });
});

describe('refund-desk facts', () => {
  it('reads rule flags and the date from the system prompt', () => {
    const system =
      'say "Overdue"; masked form; Before resubmitting; payment screenshot; 428.00 yuan\nToday is 2026-09-28.';
    expect(readRules(system)).toEqual({
      overdue: true,
      mask: true,
      resubmit: true,
      screenshot: true,
      amount: true,
    });
    expect(readRules('You are an assistant.')).toEqual({
      overdue: false,
      mask: false,
      resubmit: false,
      screenshot: false,
      amount: false,
    });
    expect(readToday(system)).toBe('2026-09-28');
    expect(readToday('no date')).toBeUndefined();
  });

  it('parses a truncated payment record leniently', () => {
    const text =
      '{"paid_at":"2026-09-18 20:05","amount":1299,"refund_status":"refund processing","refund_note":"bank channel busy; the system is retrying automatically","retry_logs":["Retry #1: bank\n[truncated: 2000 of 9000 characters kept]';
    const state = readPaymentState([exchange('get_payment', text)]);
    expect(state).toEqual({
      kind: 'found',
      payment: {
        status: 'refund processing',
        note: 'bank channel busy; the system is retrying automatically',
        amount: 1299,
      },
    });
  });

  it('prefers a successful retry over an earlier failure', () => {
    const state = readPaymentState([
      exchange('get_payment', 'Error: payment system connection timed out', true),
      exchange('get_payment', '{"refund_status":"refund under review"}'),
    ]);
    expect(state.kind).toBe('found');
  });

  it('reads an order and a missing order', () => {
    const found = readOrderState([
      exchange('get_order', '{"status":"completed","amount":129,"refund_due_date":"none"}'),
    ]);
    expect(found).toEqual({
      kind: 'found',
      order: { status: 'completed', amount: 129, refundDueDate: 'none' },
    });
    const missing = readOrderState([exchange('get_order', 'order ORD3003 does not exist', true)]);
    expect(missing).toEqual({ kind: 'not_found' });
  });

  it('masks 12-19 digit accounts and leaves masked ones alone', () => {
    expect(maskAccount('6222020200112233445')).toBe('6222****3445');
    expect(maskAccount('6222****3445')).toBe('6222****3445');
  });
});
