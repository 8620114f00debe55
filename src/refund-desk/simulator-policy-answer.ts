import type { Rng } from '../simulator/index.js';
import {
  maskAccount,
  type OrderState,
  type PaymentState,
  type RuleFlags,
} from './simulator-policy-facts.js';

export type ResubmitOutcome = 'not_asked' | 'executed' | 'refused' | 'failed' | 'held';

/** Everything the final answer is built from; `rules` already has missed rules switched off. */
export interface AnswerFacts {
  orderId: string;
  rules: RuleFlags;
  overdue: boolean;
  order: OrderState;
  payment: PaymentState;
  account: string | undefined;
  resubmit: ResubmitOutcome;
}

export function askForOrderNumber(rng: Rng): string {
  return rng.pick('phrase_ask_order', [
    'Could you tell me the order number? It looks like ORD1001.',
    'I need the order number to look this up. Could you send it (for example ORD1001)?',
  ]);
}

export function orderNotFound(orderId: string, rng: Rng): string {
  return rng.pick('phrase_not_found', [
    `I could not find order ${orderId}: it does not exist in our system. Could you please check the order number (it looks like ORD1001)?`,
    `Order ${orderId} does not exist in our records. Please verify the order number and send it again.`,
    `I could not find any order with the number ${orderId}. Could you double-check the order number?`,
  ]);
}

/** The final answer, sentence by sentence; each sentence kind has 2-3 phrasings. */
export function composeAnswer(facts: AnswerFacts, rng: Rng): string {
  return [opening(facts, rng), ...orderLines(facts, rng), ...paymentLines(facts, rng)]
    .concat(resubmitLine(facts, rng) ?? [])
    .join(' ');
}

function opening({ orderId, overdue, rules, order }: AnswerFacts, rng: Rng): string {
  const due = order.kind === 'found' ? order.order.refundDueDate : undefined;
  if (overdue && rules.overdue) {
    return rng.pick('phrase_overdue', [
      `Overdue: the refund for ${orderId} was due on ${due} and has not arrived yet.`,
      `Overdue: the refund for order ${orderId} should have arrived by ${due} and is still not complete.`,
      `Overdue: we promised the refund for ${orderId} by ${due}, and it has not been completed.`,
    ]);
  }
  return rng.pick('phrase_opening', [
    `Here is what I found about the refund for order ${orderId}.`,
    `I checked the refund for order ${orderId}.`,
    `This is the current state of the refund for ${orderId}.`,
  ]);
}

function formatAmount(amount: number, rules: RuleFlags): string {
  return rules.amount ? `${amount.toFixed(2)} yuan` : String(amount);
}

function orderLines({ order, payment, rules, overdue }: AnswerFacts, rng: Rng): string[] {
  if (order.kind !== 'found') return ['I could not load the order details right now.'];
  const { status, refundDueDate } = order.order;
  const amount =
    order.order.amount ?? (payment.kind === 'found' ? payment.payment.amount : undefined);
  const lines: string[] = [];
  if (status !== undefined) {
    lines.push(
      rng.pick('phrase_order_status', [
        `The order status is "${status}".`,
        `The order shows: ${status}.`,
      ]),
    );
  }
  if (amount !== undefined) lines.push(`The order amount is ${formatAmount(amount, rules)}.`);
  const dueSaid = overdue && rules.overdue;
  if (!dueSaid && refundDueDate && /^\d{4}-\d{2}-\d{2}$/.test(refundDueDate)) {
    lines.push(`The promised refund date was ${refundDueDate}.`);
  }
  return lines;
}

function paymentLines(facts: AnswerFacts, rng: Rng): string[] {
  const { payment, orderId, rules, account } = facts;
  const lines: string[] = [];
  if (payment.kind === 'found') {
    const { status, note, updatedAt } = payment.payment;
    const when = updatedAt ? ` (updated ${updatedAt})` : '';
    if (status) lines.push(`The payment record shows the refund status "${status}"${when}.`);
    if (note) {
      lines.push(
        rng.pick('phrase_note', [
          `The note on the refund says: ${note}.`,
          `According to the payment team's note: ${note}.`,
        ]),
      );
    }
  } else if (payment.kind === 'missing') {
    lines.push(
      `There is no payment record for ${orderId}; it may be cash on delivery or not yet synced.`,
    );
    if (rules.screenshot) {
      lines.push(
        rng.pick('phrase_screenshot', [
          'Please ask the customer to provide a payment screenshot so we can trace the payment.',
          'Could the customer provide a payment screenshot? With it we can locate the payment.',
        ]),
      );
    }
  } else if (payment.kind === 'unavailable') {
    lines.push(
      rng.pick('phrase_unavailable', [
        'The payment system is not responding right now, so I could not check the refund record; please try again later.',
        'I could not reach the payment system (it is not responding); please try again later.',
      ]),
    );
  }
  if (account !== undefined) {
    const shown = rules.mask ? maskAccount(account) : account;
    lines.push(`The refund is set to go to the payee account ${shown}.`);
  }
  return lines;
}

function resubmitLine({ resubmit }: AnswerFacts, rng: Rng): string | undefined {
  switch (resubmit) {
    case 'executed':
      return 'I have resubmitted the refund for review.';
    case 'refused':
      return rng.pick('phrase_refused', [
        "Resubmitting the refund needs a human's approval, so it was not done; I have handed it over to a human agent.",
        "The resubmission was not executed because it requires a human's approval; I have handed this over to a human agent.",
      ]);
    case 'held':
      return 'Before resubmitting, the problem in the refund note has to be confirmed as resolved; I could not confirm that, so I have handed this over to a human agent.';
    case 'failed':
      return 'The resubmission did not go through; please try again later or ask a human agent.';
    default:
      return undefined;
  }
}
