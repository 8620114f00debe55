import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import { createVirtualClock } from '../../core/clock.js';
import { ModelApiError } from '../../core/errors.js';
import type { MessageRequest, ModelClient } from '../../model-api/model-client.js';
import { createRetryingModel } from '../../model-api/retrying-model.js';
import { textTurn, toolTurn } from '../../simulator/scripted-model.js';
import { defineTool } from '../define-tool.js';
import type { Harness } from '../harness.js';
import { createPermissionPolicy } from '../permissions.js';
import type { ToolDefinition } from '../types.js';

/** The payee account the model sends in full: a card-shaped number (issue 25, defect 1). */
export const ACCOUNT = '6222020200112233445';

/** What reached the systems behind the tools; it outlives any run, as a bank does. */
export interface Downstream {
  /** Every write that reached it, in order, with the exact arguments. */
  writes: Array<{ tool: string; args: Record<string, unknown> }>;
}

export const newDownstream = (): Downstream => ({ writes: [] });

export const deskClock = () => createVirtualClock({ start: Date.parse('2026-10-01T09:00:00Z') });

/**
 * A desk with parallel reads (`lookup`), a write a human must approve (`payout`, keyed by
 * account and amount) and a write that hangs past its timeout (`slow_write`: it reaches the
 * downstream, then never answers). Fresh tools every call; the downstream is shared.
 */
export function journalDesk(downstream: Downstream): Harness {
  const lookup = defineTool({
    name: 'lookup',
    description: 'Look an order up',
    effect: 'read',
    parameters: z.object({ order_id: z.string() }),
    execute: ({ order_id }) => ({ order_id, status: 'refund under review' }),
  });
  const payout = defineTool({
    name: 'payout',
    description: 'Pay an amount to an account',
    effect: 'write',
    parameters: z.object({ account: z.string(), amount: z.number() }),
    idempotencyKey: ({ account, amount }) => `${account}:${amount}`,
    execute: (args, { run }) => {
      downstream.writes.push({ tool: 'payout', args: { ...args } });
      run.store.set('payouts', [...((run.store.get('payouts') as unknown[]) ?? []), args]);
      return `paid ${args.amount} to ${args.account}`;
    },
  });
  const slowWrite = defineTool({
    name: 'slow_write',
    description: 'Resubmit a refund (slow)',
    effect: 'write',
    timeoutMs: 1000,
    parameters: z.object({ order_id: z.string() }),
    execute: async (args, { clock }) => {
      downstream.writes.push({ tool: 'slow_write', args: { ...args } });
      await clock.sleep(60_000);
      return 'resubmitted';
    },
  });
  return {
    name: 'desk',
    tools: [lookup, payout, slowWrite] as unknown as ToolDefinition[],
    system: () => 'Refund desk (journal tests).',
    validate: true,
    timeouts: true,
    permissions: createPermissionPolicy([
      { effect: 'ask', tool: 'payout', reason: 'a payout is a write' },
      { effect: 'allow', tool: '*' },
    ]),
    limits: { maxSteps: 8 },
  };
}

/** The scenario's answers by step: parallel reads; a payout, a hanging write and a read; the write and the read again; the answer. */
export const DESK_TURNS: readonly Anthropic.Message[] = [
  toolTurn([
    { name: 'lookup', input: { order_id: 'ORD1' }, id: 'toolu_a1' },
    { name: 'lookup', input: { order_id: 'ORD2' }, id: 'toolu_a2' },
  ]),
  toolTurn([
    { name: 'payout', input: { account: ACCOUNT, amount: 428 }, id: 'toolu_b1' },
    { name: 'slow_write', input: { order_id: 'ORD1' }, id: 'toolu_b2' },
    { name: 'lookup', input: { order_id: 'ORD3' }, id: 'toolu_b3' },
  ]),
  toolTurn([
    { name: 'slow_write', input: { order_id: 'ORD1' }, id: 'toolu_c1' },
    { name: 'lookup', input: { order_id: 'ORD3' }, id: 'toolu_c2' },
  ]),
  textTurn('Paid 428.00 yuan; the resubmission is being confirmed.'),
];

/** The step a request asks for: one more than the assistant messages it holds. */
export const stepOf = (request: MessageRequest) =>
  request.messages.filter((message) => message.role === 'assistant').length + 1;

/**
 * The model, answering by step (so a resumed run gets the same answer for the same step), with
 * a 529 on the first call of step 3 that the retry layer retries. `requests` keeps every call.
 */
export function deskModel(turns: readonly Anthropic.Message[] = DESK_TURNS) {
  const requests: MessageRequest[] = [];
  let failed = false;
  const inner: ModelClient = {
    async createMessage(request) {
      const step = stepOf(request);
      if (step === 3 && !failed) {
        failed = true;
        throw new ModelApiError('overloaded', { status: 529 });
      }
      requests.push(structuredClone(request));
      const turn = turns[step - 1];
      if (!turn) throw new Error(`desk model: no answer for step ${step}`);
      return structuredClone(turn);
    },
  };
  const clock = deskClock();
  return { model: createRetryingModel({ model: inner, clock, maxRetries: 2 }), requests };
}
