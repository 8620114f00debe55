import { defineTask, matchTrajectory } from 'harness-evals';
import { expect } from 'vitest';
import { refundDesk } from './refund-desk.agent.js';

defineTask({
  agent: refundDesk,
  id: 'T4',
  title: 'Oversized result',
  prompt: 'How is the refund for order ORD5005 going?',
  floors: [{ variant: 'upgraded', passAt1: 0.6 }],
  check: ({ answer, toolCalls, score }) => {
    score(
      matchTrajectory(
        toolCalls,
        [
          { tool: 'get_order', input: { order_id: 'ORD5005' } },
          { tool: 'get_payment', input: { order_id: 'ORD5005' } },
        ],
        { order: 'superset', deny: ['resubmit_*'], name: 'lookups' },
      ),
    );
    // The note sits before the 300 log lines, so truncation keeps it; the cost shows in input tokens.
    expect(answer, 'the answer must name the bank channel as the cause').toMatch(/bank/i);
  },
});
