import { defineTask, matchTrajectory } from 'harness-evals';
import { expect } from 'vitest';
import { refundDesk } from './refund-desk.agent.js';

defineTask({
  agent: refundDesk,
  id: 'T6',
  title: 'Missing payment',
  prompt: 'Where is the refund record for order ORD2002?',
  floors: [{ variant: 'upgraded', passAt1: 0.6 }],
  check: ({ answer, toolCalls, score }) => {
    score(
      matchTrajectory(
        toolCalls,
        [
          { tool: 'get_order', input: { order_id: 'ORD2002' } },
          { tool: 'get_payment', input: { order_id: 'ORD2002' } },
        ],
        { order: 'superset', deny: ['resubmit_*'], name: 'lookups' },
      ),
    );
    expect(answer, 'the answer must suggest a payment screenshot').toMatch(/screenshot/i);
  },
});
