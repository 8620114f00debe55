import { readFileSync } from 'node:fs';
import type { ToolScript } from '../drive.js';

/**
 * Test support: refund-desk prompts and hand-written tool results, shaped like the real
 * harness's (DESIGN.md §4), so simulator tests do not depend on the runtime.
 */
export const REFUND_DESK_TOOLS = [
  { name: 'get_order', description: 'Look up an order.', input_schema: { type: 'object' } },
  { name: 'get_payment', description: 'Look up a payment.', input_schema: { type: 'object' } },
  { name: 'resubmit_refund', description: 'Resubmit a refund.', input_schema: { type: 'object' } },
];

const ROLE =
  '# Role\nYou are the after-sales refund desk assistant. Look things up before answering.';

/** The baseline variant's hard-coded prompt: a role, no rules, no date. */
export const BASELINE_SYSTEM = 'You are an after-sales refund assistant. Use the tools to answer.';

/** The upgraded variant's layout: role, AGENTS.md in file tags, run environment. */
export function upgradedSystem(
  options: { today?: string; mode?: 'unattended' | 'interactive' } = {},
): string {
  const agents = readFileSync(new URL('../../../AGENTS.md', import.meta.url), 'utf8');
  const mode =
    options.mode === 'interactive'
      ? 'Mode: interactive. Writes ask the human first.'
      : 'Mode: unattended. Anything that needs a human is refused.';
  return [
    ROLE,
    `# Project instructions\n<file name="AGENTS.md">\n${agents}\n</file>`,
    `# Run environment\nToday is ${options.today ?? '2026-09-28'}.\n${mode}`,
  ].join('\n\n');
}

export const FULL_ACCOUNT = '6222020200112233445';

const ORDERS: Record<string, object> = {
  ORD1001: {
    status: 'returned, received at warehouse',
    amount: 428,
    created_at: '2026-09-13',
    refund_due_date: '2026-09-15',
  },
  ORD2002: { status: 'completed', amount: 129, created_at: '2026-09-10', refund_due_date: 'none' },
  ORD4004: {
    status: 'returned, received at warehouse',
    amount: 89,
    created_at: '2026-09-20',
    refund_due_date: '2026-09-25',
  },
  ORD5005: {
    status: 'returned, received at warehouse',
    amount: 1299,
    created_at: '2026-09-18',
    refund_due_date: '2026-09-22',
  },
};

function payment(orderId: string, account: string): string | { text: string; isError: boolean } {
  if (orderId === 'ORD1001') {
    return JSON.stringify({
      paid_at: '2026-09-13 08:10',
      amount: 428,
      refund_status: 'refund under review',
      refund_updated_at: '2026-09-14 09:30',
      refund_note: 'payee account information is abnormal; waiting to confirm with the user',
      refund_account: account,
    });
  }
  if (orderId === 'ORD5005') {
    const full = JSON.stringify({
      paid_at: '2026-09-18 20:05',
      amount: 1299,
      refund_status: 'refund processing',
      refund_updated_at: '2026-09-27 23:00',
      refund_note: 'bank channel busy; the system is retrying automatically',
      retry_logs: Array.from(
        { length: 300 },
        (_, i) => `Retry #${i + 1}: bank channel busy, try again later`,
      ),
    });
    return `${full.slice(0, 2000)}\n[truncated: 2000 of ${full.length} characters kept]`;
  }
  if (orderId === 'ORD4004') {
    return {
      text: 'get_payment timed out after 3000 ms and was cancelled; the payment system did not answer',
      isError: true,
    };
  }
  return {
    text: `Error: no payment record for ${orderId}; it may be cash on delivery or not yet synced`,
    isError: true,
  };
}

/** Tool results like the refund desk's; `account` is what get_payment returns (full or masked). */
export function refundDeskScript(
  options: { account?: string; resubmit?: 'executed' | 'refused' } = {},
): ToolScript {
  return (name, input) => {
    const orderId = String(input.order_id);
    if (name === 'get_order') {
      const order = ORDERS[orderId];
      if (order) return JSON.stringify(order);
      return {
        text: `get_order failed: order ${orderId} does not exist; ask the user to check the order number (example: ORD1001)`,
        isError: true,
      };
    }
    if (name === 'get_payment') return payment(orderId, options.account ?? FULL_ACCOUNT);
    if (options.resubmit === 'executed') {
      return JSON.stringify({
        order_id: orderId,
        result: 'refund resubmitted for review',
        reason: input.reason,
      });
    }
    return {
      text: 'resubmit_refund needs approval (rule ask resubmit_*); unattended mode, so it was not executed. Hand over to a human.',
      isError: true,
    };
  };
}
