import { defineTask } from 'harness-evals';
import { expect } from 'vitest';
import { refundDesk } from './refund-desk.agent.js';

defineTask({
  agent: refundDesk,
  id: 'T2',
  title: 'Order not found',
  prompt: 'How far along is the refund for order ORD3003?',
  floors: [{ variant: 'upgraded', passAt1: 0.6 }],
  check: ({ answer }) => {
    expect(
      answer,
      'the answer must ask to check the order number or say it does not exist',
    ).toMatch(
      /\b(check|verify|double-check|confirm)\b.*\border\b|does not exist|doesn't exist|could not find|couldn't find/i,
    );
  },
});
