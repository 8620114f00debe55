import { defineTask } from 'harness-evals';
import { expect } from 'vitest';
import { refundDesk } from './refund-desk.agent.js';

defineTask({
  agent: refundDesk,
  id: 'T6',
  title: 'Missing payment',
  prompt: 'Where is the refund record for order ORD2002?',
  floors: [{ variant: 'upgraded', passAt1: 0.6 }],
  check: ({ answer }) => {
    expect(answer, 'the answer must suggest a payment screenshot').toMatch(/screenshot/i);
  },
});
