/**
 * The refund desk, played the way a model would: it reads the user's order number, the
 * system prompt's rules and date, and the tool results, then calls tools or answers.
 *
 * Stochastic habits (one named draw each, seeded per (seed, assistant turns, draw name)):
 * - parallel lookups, p=0.5: the first turn calls get_order and get_payment together
 *   (otherwise get_order first, get_payment next turn).
 * - retry a failed lookup, p=0.35: right after a get_payment that failed or timed out,
 *   call it once more with the same input before answering (at most once).
 * - misses a rule, p=0.1 per rule per answer (draws `miss_<rule>`): behaves as if that
 *   system-prompt rule were absent (overdue, mask, amount, screenshot, resubmit).
 *   With a `passRate` for the trial's variant, this habit is replaced by one draw per trial
 *   (`trialPasses`): it follows every rule of its prompt with that probability, else none.
 * - narrates, p=0.3: a short sentence before a tool call.
 * - phrasing: each answer sentence has 2-3 templates, picked by draw.
 */

import type { Rng, SimRequest } from '../simulator/index.js';
import {
  answer,
  callTools,
  checkPassRate,
  type PassRate,
  type Policy,
  passRateFor,
  type Turn,
  trialPasses,
} from '../simulator/index.js';
import {
  askForOrderNumber,
  composeAnswer,
  orderNotFound,
  type ResubmitOutcome,
} from './simulator-policy-answer.js';
import {
  classify,
  type RuleFlags,
  readAccount,
  readOrderState,
  readPaymentState,
  readRules,
  readToday,
  refundComplete,
} from './simulator-policy-facts.js';

/** Probabilities of the habits above; tests may switch one off with `createRefundDeskPolicy`. */
export interface RefundDeskHabits {
  parallelLookups: number;
  retryFailedLookup: number;
  missRule: number;
  narrate: number;
}

export const REFUND_DESK_HABITS: Readonly<RefundDeskHabits> = {
  parallelLookups: 0.5,
  retryFailedLookup: 0.35,
  missRule: 0.1,
  narrate: 0.3,
};

/** Past this many assistant turns the policy answers with what it has (no endless loops). */
const MAX_TURNS = 8;
const RESUBMIT_REASON = 'customer confirmed a new payee account';

export interface RefundDeskOptions extends Partial<RefundDeskHabits> {
  /**
   * The chance a trial follows its prompt's rules, for every variant or per variant
   * (`{ upgraded: 0.7 }`): a row whose check needs those rules (T1) then passes at that rate.
   */
  passRate?: PassRate;
}

/**
 * The refund desk with its habits; `options` changes probabilities (e.g. `{ missRule: 0 }`), or
 * gives rows a chosen pass rate (`{ passRate: { upgraded: 0.7 } }`).
 */
export function createRefundDeskPolicy(options: RefundDeskOptions = {}): Policy {
  const { passRate, ...overrides } = options;
  const habits: RefundDeskHabits & { passRate?: PassRate } = {
    ...REFUND_DESK_HABITS,
    ...overrides,
  };
  const checked = checkPassRate(passRate, 'createRefundDeskPolicy');
  if (checked !== undefined) habits.passRate = checked;
  return {
    name: 'refund-desk',
    matches: (request) => request.toolNames.includes('get_order'),
    next: (request, rng) => nextTurn(request, rng, habits),
  };
}

export const refundDeskPolicy: Policy = createRefundDeskPolicy();

function nextTurn(
  request: SimRequest,
  rng: Rng,
  habits: RefundDeskHabits & { passRate?: PassRate },
): Turn {
  const orderId = /ORD\d{4}/.exec(request.firstUserText)?.[0];
  if (orderId === undefined) return answer(askForOrderNumber(rng));
  const offered = (name: string) => request.toolNames.includes(name);
  const callsOf = (name: string) => request.exchanges.filter((call) => call.name === name);
  const rate = passRateFor(habits.passRate, request.seed);
  const rules =
    rate === undefined
      ? effectiveRules(readRules(request.systemText), rng, habits.missRule)
      : trialPasses(request.seed, rate)
        ? readRules(request.systemText)
        : NO_RULES;
  const order = readOrderState(request.exchanges);
  const narrate = (text: string) => (rng.chance('narrate', habits.narrate) ? text : undefined);
  const input = { order_id: orderId };
  const final = (resubmit: ResubmitOutcome): Turn =>
    finalAnswer(request, orderId, rules, resubmit, rng);
  if (request.assistantTurns >= MAX_TURNS) return final(resubmitOutcome(request));

  if (order.kind === 'not_called') {
    const parallel =
      offered('get_payment') && rng.chance('parallel_lookups', habits.parallelLookups);
    const calls = [{ name: 'get_order', input }];
    if (parallel) calls.push({ name: 'get_payment', input });
    return callTools(calls, narrate(`Let me look up order ${orderId}.`));
  }
  if (order.kind === 'not_found') return answer(orderNotFound(orderId, rng));

  const payments = callsOf('get_payment');
  if (offered('get_payment') && payments.length === 0) {
    return callTools(
      [{ name: 'get_payment', input }],
      narrate('Now let me check the payment record.'),
    );
  }
  const lastPayment = payments.at(-1);
  if (
    payments.length === 1 &&
    lastPayment !== undefined &&
    lastPayment.turn === request.assistantTurns - 1 &&
    classify(lastPayment) === 'failed' &&
    rng.chance('retry_failed_lookup', habits.retryFailedLookup)
  ) {
    const retryInput = (lastPayment.input ?? input) as Record<string, unknown>;
    return callTools(
      [{ name: 'get_payment', input: retryInput }],
      narrate('That lookup failed; let me try once more.'),
    );
  }

  const asksResubmit = /resubmit/i.test(request.firstUserText);
  if (asksResubmit && offered('resubmit_refund') && callsOf('resubmit_refund').length === 0) {
    // The resubmit rule: only when the user says the note's problem is resolved.
    if (rules.resubmit && !/confirm/i.test(request.firstUserText)) return final('held');
    return callTools(
      [{ name: 'resubmit_refund', input: { order_id: orderId, reason: RESUBMIT_REASON } }],
      narrate('I will resubmit the refund now.'),
    );
  }
  return final(resubmitOutcome(request));
}

/** The "misses a rule" habit: each rule present in the prompt is dropped with p=0.1. */
function effectiveRules(rules: RuleFlags, rng: Rng, missRule: number): RuleFlags {
  const keep = (rule: keyof RuleFlags) => rules[rule] && !rng.chance(`miss_${rule}`, missRule);
  return {
    overdue: keep('overdue'),
    mask: keep('mask'),
    resubmit: keep('resubmit'),
    screenshot: keep('screenshot'),
    amount: keep('amount'),
  };
}

const NO_RULES: RuleFlags = {
  overdue: false,
  mask: false,
  resubmit: false,
  screenshot: false,
  amount: false,
};

function resubmitOutcome(request: SimRequest): ResubmitOutcome {
  const calls = request.exchanges.filter((call) => call.name === 'resubmit_refund');
  if (calls.length === 0) return 'not_asked';
  const kinds = calls.map(classify);
  const saysDone = (text = '') => /resubmitted/i.test(text) && !/not|fail/i.test(text);
  if (
    kinds.includes('ok') ||
    calls.some((call) => !call.result?.isError && saysDone(call.result?.text))
  ) {
    return 'executed';
  }
  return kinds.includes('refused') || kinds.includes('blocked') ? 'refused' : 'failed';
}

function finalAnswer(
  request: SimRequest,
  orderId: string,
  rules: RuleFlags,
  resubmit: ResubmitOutcome,
  rng: Rng,
): Turn {
  const order = readOrderState(request.exchanges);
  const payment = readPaymentState(request.exchanges);
  const today = readToday(request.systemText);
  const due = order.kind === 'found' ? order.order.refundDueDate : undefined;
  const overdue =
    today !== undefined &&
    due !== undefined &&
    /^\d{4}-\d{2}-\d{2}$/.test(due) &&
    due < today &&
    !refundComplete(order, payment);
  const account = readAccount(request, payment);
  return answer(composeAnswer({ orderId, rules, overdue, order, payment, account, resubmit }, rng));
}
