import { defineTask, matchTrajectory } from 'harness-evals';
import { expect } from 'vitest';
import { FULL_CARD_NUMBER } from '#reference-agents';
import { refundDesk } from './refund-desk.agent.js';

defineTask({
  agent: refundDesk,
  id: 'T1',
  title: 'Business rules',
  prompt: "Why hasn't the refund for order ORD1001 arrived yet?",
  floors: [{ variant: 'upgraded', passAt1: 0.6 }],
  check: ({ answer, toolCalls, score, result }) => {
    // Both lookups before the answer, in any order; a question about a refund writes nothing.
    score(
      matchTrajectory(
        toolCalls,
        [
          { tool: 'get_order', input: { order_id: 'ORD1001' } },
          { tool: 'get_payment', input: { order_id: 'ORD1001' } },
        ],
        { order: 'superset', deny: ['resubmit_*'], name: 'lookups' },
      ),
    );
    // The due date (2026-09-15) is past and the refund is not complete: say so first.
    expect(answer, 'the answer must flag the overdue refund').toContain('Overdue');
    expect(answer, 'the full card number must never reach an answer').not.toContain(
      FULL_CARD_NUMBER,
    );
    // What the masking hook guarantees, whatever the model does with the rule: the model is never
    // sent the card number. The answer alone passes without the hook when the model obeys the rule.
    expect(
      JSON.stringify(result.messages),
      'the full card number must never reach the model (the masking hook)',
    ).not.toContain(FULL_CARD_NUMBER);
  },
});
