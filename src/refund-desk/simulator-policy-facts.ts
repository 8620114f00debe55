import type { SimRequest, ToolExchange } from '../simulator/index.js';

/** Business rules the system prompt carries, detected by keyword (see AGENTS.md). */
export interface RuleFlags {
  overdue: boolean;
  mask: boolean;
  resubmit: boolean;
  screenshot: boolean;
  amount: boolean;
}
export type RuleName = keyof RuleFlags;

export function readRules(systemText: string): RuleFlags {
  return {
    overdue: systemText.includes('Overdue'),
    mask: systemText.includes('masked form'),
    resubmit: systemText.includes('Before resubmitting'),
    screenshot: systemText.includes('payment screenshot'),
    amount: systemText.includes('yuan'),
  };
}

/** `Today is YYYY-MM-DD.` from the run environment section; without it overdue cannot be judged. */
export function readToday(systemText: string): string | undefined {
  return /Today is (\d{4}-\d{2}-\d{2})/.exec(systemText)?.[1];
}

/** How one tool result reads to a model. */
export type ResultKind = 'ok' | 'not_found' | 'missing' | 'blocked' | 'refused' | 'failed';

export function classify(exchange: ToolExchange): ResultKind {
  const text = exchange.result?.text ?? '';
  const isError = exchange.result?.isError === true;
  // A JSON record is data, even when a note inside it mentions "approval".
  if (!isError && /^\s*[{[]/.test(text)) return 'ok';
  if (/already called/i.test(text)) return 'blocked';
  if (/approv|not executed|denied|declined|refused|rejected|not allowed/i.test(text)) {
    return 'refused';
  }
  if (/does not exist/i.test(text)) return 'not_found';
  if (/no payment record/i.test(text)) return 'missing';
  return !isError && /"\w*status"\s*:/.test(text) ? 'ok' : 'failed';
}

export interface OrderRecord {
  status?: string;
  amount?: number;
  refundDueDate?: string;
}

export interface PaymentRecord {
  status?: string;
  note?: string;
  updatedAt?: string;
  amount?: number;
  account?: string;
}

export type OrderState =
  | { kind: 'not_called' | 'not_found' | 'failed' }
  | { kind: 'found'; order: OrderRecord };
export type PaymentState =
  | { kind: 'not_called' | 'missing' | 'unavailable' }
  | { kind: 'found'; payment: PaymentRecord };

/** Parse leniently: a truncated JSON result still yields its leading string fields. */
function field(text: string, name: string): string | undefined {
  const match = new RegExp(`"${name}"\\s*:\\s*("(?:[^"\\\\]|\\\\.)*"|-?[\\d.]+)`).exec(text);
  if (!match?.[1]) return undefined;
  try {
    return String(JSON.parse(match[1]));
  } catch {
    return undefined;
  }
}

function numberField(text: string, name: string): number | undefined {
  const value = Number(field(text, name));
  return Number.isFinite(value) ? value : undefined;
}

export function readOrderState(exchanges: readonly ToolExchange[]): OrderState {
  const calls = exchanges.filter((exchange) => exchange.name === 'get_order');
  const found = calls.find((exchange) => classify(exchange) === 'ok');
  if (found?.result) {
    const text = found.result.text;
    const order: OrderRecord = {};
    const status = field(text, 'status');
    const amount = numberField(text, 'amount');
    const due = field(text, 'refund_due_date');
    if (status !== undefined) order.status = status;
    if (amount !== undefined) order.amount = amount;
    if (due !== undefined) order.refundDueDate = due;
    return { kind: 'found', order };
  }
  if (calls.some((exchange) => classify(exchange) === 'not_found')) return { kind: 'not_found' };
  return { kind: calls.length === 0 ? 'not_called' : 'failed' };
}

export function readPaymentState(exchanges: readonly ToolExchange[]): PaymentState {
  const calls = exchanges.filter((exchange) => exchange.name === 'get_payment');
  const found = calls.find((exchange) => classify(exchange) === 'ok');
  if (found?.result) {
    const text = found.result.text;
    const payment: PaymentRecord = {};
    const entries = [
      ['status', field(text, 'refund_status')],
      ['note', field(text, 'refund_note')],
      ['updatedAt', field(text, 'refund_updated_at')],
      ['account', field(text, 'refund_account')],
    ] as const;
    for (const [key, value] of entries) if (value !== undefined) payment[key] = value;
    const amount = numberField(text, 'amount');
    if (amount !== undefined) payment.amount = amount;
    return { kind: 'found', payment };
  }
  if (calls.some((exchange) => classify(exchange) === 'missing')) return { kind: 'missing' };
  return { kind: calls.length === 0 ? 'not_called' : 'unavailable' };
}

const ACCOUNT_PATTERN = /\b\d{4}\*{2,}\d{4}\b|\b\d{12,19}\b/;

/** A payee account as the tools returned it: the payment record's, else any card-like run. */
export function readAccount(request: SimRequest, payment: PaymentState): string | undefined {
  if (payment.kind === 'found' && payment.payment.account) return payment.payment.account;
  for (const exchange of request.exchanges) {
    const match = ACCOUNT_PATTERN.exec(exchange.result?.text ?? '');
    if (match) return match[0];
  }
  return undefined;
}

/** 12-19 digit runs -> first 4 + `****` + last 4; an already masked account stays as it is. */
export function maskAccount(account: string): string {
  return account.replace(/\d{12,19}/g, (digits) => `${digits.slice(0, 4)}****${digits.slice(-4)}`);
}

export function refundComplete(order: OrderState, payment: PaymentState): boolean {
  const statuses = [
    order.kind === 'found' ? order.order.status : undefined,
    payment.kind === 'found' ? payment.payment.status : undefined,
  ];
  return statuses.some((status) => /refunded|refund (is )?complete/i.test(status ?? ''));
}
