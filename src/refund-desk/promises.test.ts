import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createVirtualClock } from '../core/clock.js';
import type { MessageRequest } from '../model-api/model-client.js';
import type { Harness } from '../runtime/harness.js';
import { runAgent } from '../runtime/run-agent.js';
import { durablePipeline } from '../runtime/testing/durable-pipeline.js';
import { testRunState } from '../runtime/testing/run-state.js';
import type { ToolDefinition } from '../runtime/types.js';
import { idempotencyKeyFor } from '../runtime/write-key.js';
import { createScriptedModel, textTurn, toolTurn } from '../simulator/scripted-model.js';
import { FULL_CARD_NUMBER } from './data.js';
import { refundSubmissionsOf, resubmitRefund } from './tools.js';
import { createUpgradedHarness } from './variants.js';

const projectDir = fileURLToPath(new URL('../..', import.meta.url));

describe("the refund desk's idempotency key", () => {
  const tool = resubmitRefund as unknown as ToolDefinition;
  const run = testRunState();

  it('does not depend on the wording of reason: one order, one resubmission', () => {
    const a = idempotencyKeyFor(tool, { order_id: 'ORD1001', reason: 'payee account fixed' }, run);
    const b = idempotencyKeyFor(
      tool,
      { order_id: 'ORD1001', reason: 'The customer confirmed a new payee account.' },
      run,
    );
    expect(a).toBe('resubmit_refund:ORD1001:resubmit');
    expect(b).toBe(a);
    expect(
      idempotencyKeyFor(tool, { order_id: 'ORD4004', reason: 'payee account fixed' }, run),
    ).not.toBe(a);
  });

  it('answers a reworded retry from the journal instead of resubmitting again', async () => {
    const desk = await durablePipeline({
      tools: [resubmitRefund as unknown as ToolDefinition],
      validate: true,
    });
    const first = await desk.call({
      id: 't1',
      name: 'resubmit_refund',
      input: { order_id: 'ORD1001', reason: 'account fixed' },
    });
    const reworded = await desk.call({
      id: 't2',
      name: 'resubmit_refund',
      input: { order_id: 'ORD1001', reason: 'customer confirmed the new account' },
    });
    expect(first.kind === 'result' && first.record.replayed).toBeUndefined();
    expect(reworded.kind === 'result' && reworded.record.replayed).toBe(true);
    expect(refundSubmissionsOf(desk.journal.view.store)).toEqual([
      {
        order_id: 'ORD1001',
        reason: 'account fixed',
        idempotency_key: 'run-7/resubmit_refund:ORD1001:resubmit',
      },
    ]);
  });
});

describe("T1's upgraded variant: the masking hook is what keeps the card out (negative control)", () => {
  /** A model that ignores the masking rule and quotes the account it was given (the simulator's "missed rule" habit). */
  const quotingModel = () =>
    createScriptedModel([
      toolTurn([{ name: 'get_order', input: { order_id: 'ORD1001' } }]),
      toolTurn([{ name: 'get_payment', input: { order_id: 'ORD1001' } }]),
      (request: MessageRequest) => {
        const sent = JSON.stringify(request.messages.at(-1));
        const account = /refund_account\\+":\\+"([^"\\]+)/.exec(sent)?.[1] ?? 'unknown';
        return textTurn(
          `Overdue: the refund for ORD1001 was due on 2026-09-15. It is on hold because the payee account ${account} is abnormal.`,
        );
      },
    ]);

  async function t1(harness: Harness) {
    const model = quotingModel();
    const result = await runAgent({
      harness,
      model,
      modelId: 'scripted',
      prompt: "Why hasn't the refund for order ORD1001 arrived yet?",
      clock: createVirtualClock({ start: Date.parse('2026-10-01T09:00:00Z') }),
      mode: 'unattended',
    });
    model.assertDone();
    const seenByModel = JSON.stringify(model.requests.map((request) => request.messages));
    return { answer: result.answer, seenByModel };
  }

  /** T1's check (evals/t1-business-rules.eval.ts): passes when it returns no problem. */
  const t1Problems = (answer: string) => [
    ...(answer.includes('Overdue') ? [] : ['no "Overdue"']),
    ...(answer.includes(FULL_CARD_NUMBER) ? ['the full card number reached the answer'] : []),
  ];

  const upgraded = () => createUpgradedHarness({ projectDir, instructionFiles: ['AGENTS.md'] });

  it('with the hook, neither the model nor the answer sees the full card number', async () => {
    const { answer, seenByModel } = await t1(upgraded());
    expect(seenByModel).not.toContain(FULL_CARD_NUMBER);
    expect(answer).toContain('6222****3445');
    expect(t1Problems(answer)).toEqual([]);
  });

  it('without it (everything else upgraded), the card reaches the model and the answer, and T1 fails', async () => {
    const harness = upgraded();
    // maskCardNumbers is the upgraded variant's only PostToolUse hook; if that changes, this
    // control must be revisited rather than silently testing nothing.
    expect(harness.hooks?.postToolUse).toHaveLength(1);
    const withoutMasking: Harness = { ...harness, hooks: { ...harness.hooks, postToolUse: [] } };
    const { answer, seenByModel } = await t1(withoutMasking);
    expect(seenByModel).toContain(FULL_CARD_NUMBER);
    expect(answer).toContain(FULL_CARD_NUMBER);
    expect(t1Problems(answer)).toEqual(['the full card number reached the answer']);
  });
});
