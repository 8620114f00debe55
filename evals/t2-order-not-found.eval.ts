import { defineTask, matchTrajectory } from 'harness-evals';
import { expect } from 'vitest';
import { refundDesk } from './refund-desk.agent.js';

defineTask({
  agent: refundDesk,
  id: 'T2',
  title: 'Order not found',
  prompt: 'How far along is the refund for order ORD3003?',
  floors: [{ variant: 'upgraded', passAt1: 0.6 }],
  check: ({ answer, toolCalls, score }) => {
    // The order is looked up once: an order that does not exist is not retried.
    score(
      matchTrajectory(toolCalls, [{ tool: 'get_order', input: { order_id: 'ORD3003' } }], {
        order: 'superset',
        counts: { get_order: { max: 1 } },
        deny: ['resubmit_*'],
        name: 'lookups',
      }),
    );
    expect(
      answer,
      'the answer must ask to check the order number or say it does not exist',
    ).toMatch(
      /\b(check|verify|double-check|confirm)\b.*\border\b|does not exist|doesn't exist|could not find|couldn't find/i,
    );
  },
});
