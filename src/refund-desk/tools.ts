import { z } from 'zod';
import { defineTool, type RunState, type ToolDefinition } from '../index.js';
import { ORDERS, PAYMENT_HANG_MS, PAYMENTS } from './data.js';

const ORDER_ID_PATTERN = /^ORD\d{4}$/;
const orderId = z.string().regex(ORDER_ID_PATTERN).describe('Order number, for example ORD1001');

/** The key of the per-run write store; it starts empty for every run. */
export const SUBMISSIONS_KEY = 'refund_desk.submissions';

export interface RefundSubmission {
  order_id: string;
  reason: string;
  /** Set when the run keeps a write log: the key the refund system deduplicates on. */
  idempotency_key?: string;
}

/** The refunds resubmitted in one run (empty when none). */
export function refundSubmissionsOf(store: ReadonlyMap<string, unknown>): RefundSubmission[] {
  return (store.get(SUBMISSIONS_KEY) as RefundSubmission[] | undefined) ?? [];
}

function recordSubmission(run: RunState, submission: RefundSubmission): void {
  run.store.set(SUBMISSIONS_KEY, [...refundSubmissionsOf(run.store), submission]);
}

function describeOrderIdProblem(input: unknown): string | undefined {
  const value = (input as { order_id?: unknown } | null)?.order_id;
  if (typeof value === 'string' && !ORDER_ID_PATTERN.test(value)) {
    return `order_id '${value}' must look like ORD1001; ask the user to check it`;
  }
  return undefined;
}

function requireOrder(order_id: string) {
  const order = ORDERS[order_id];
  if (!order) {
    throw new Error(
      `order ${order_id} does not exist; ask the user to check the order number (example: ORD1001)`,
    );
  }
  return order;
}

export const getOrder = defineTool({
  name: 'get_order',
  description:
    'Look up an order: status, amount, creation date and promised refund date. Call it first when the user gives an order number.',
  effect: 'read',
  timeoutMs: 3000,
  parameters: z.object({ order_id: orderId }),
  describeInvalid: (_issues, input) => describeOrderIdProblem(input),
  execute: ({ order_id }) => requireOrder(order_id),
});

export const getPayment = defineTool({
  name: 'get_payment',
  description:
    "Look up an order's payment and refund record (refund status, note, payee account). Call it to find out why a refund is late.",
  effect: 'read',
  timeoutMs: 3000,
  parameters: z.object({ order_id: orderId }),
  describeInvalid: (_issues, input) => describeOrderIdProblem(input),
  execute: async ({ order_id }, { clock, signal }) => {
    if (order_id === 'ORD4004') {
      // The payment system hangs, then fails; a cancelled call stops waiting at once.
      await clock.sleep(PAYMENT_HANG_MS, signal);
      throw new Error('payment system connection timed out');
    }
    const payment = PAYMENTS[order_id];
    if (!payment) {
      throw new Error(
        `no payment record for ${order_id}; it may be cash on delivery or not yet synced`,
      );
    }
    return payment;
  },
});

export const resubmitRefund = defineTool({
  name: 'resubmit_refund',
  description:
    'Resubmit a refund for review (a write). Only when the user explicitly asks and the problem in the refund note is resolved.',
  effect: 'write',
  timeoutMs: 3000,
  parameters: z.object({
    order_id: orderId,
    reason: z.string().min(1).describe('Why the refund is resubmitted'),
  }),
  describeInvalid: (_issues, input) => describeOrderIdProblem(input),
  // One resubmission per order and run, whatever the wording of the reason or the tool_use id.
  idempotencyKey: ({ order_id }) => `${order_id}:resubmit`,
  execute: ({ order_id, reason }, { run, idempotencyKey }) => {
    requireOrder(order_id);
    const submitted = refundSubmissionsOf(run.store).some(
      (submission) => idempotencyKey !== undefined && submission.idempotency_key === idempotencyKey,
    );
    // The refund system honours the key too: a duplicate is acknowledged, not queued again.
    if (!submitted) {
      recordSubmission(run, {
        order_id,
        reason,
        ...(idempotencyKey !== undefined && { idempotency_key: idempotencyKey }),
      });
    }
    return { order_id, result: 'refund resubmitted for review', reason };
  },
});

export const refundDeskTools: readonly ToolDefinition[] = [
  getOrder,
  getPayment,
  resubmitRefund,
] as never;
