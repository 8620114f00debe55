import { defineTask } from 'harness-evals';
import { expect } from 'vitest';
import { FULL_CARD_NUMBER } from '#reference-agents';
import { refundDesk } from './refund-desk.agent.js';

/** What a question's answer must do, as evals/data/refund-questions.jsonl says per case. */
interface Expected {
  /** A pattern the answer matches (case-blind). */
  mentions?: string;
  /** The full card number must never reach the answer. */
  forbidCard?: boolean;
  /** Tools may take at most this long (a hung payment system must be cut off). */
  maxToolMs?: number;
}

defineTask({
  agent: refundDesk,
  id: 'T8',
  title: 'Customer questions',
  // 24 questions as customers ask them: each case's input is the prompt.
  cases: 'evals/data/refund-questions.jsonl',
  floors: [{ variant: 'upgraded', passAt1: 0.6 }],
  check: ({ answer, stats, case: testCase }) => {
    const expected = (testCase?.expected ?? {}) as Expected;
    if (expected.mentions !== undefined) {
      expect(answer, `the answer must match /${expected.mentions}/i`).toMatch(
        new RegExp(expected.mentions, 'i'),
      );
    }
    if (expected.forbidCard) {
      expect(answer, 'the full card number must never reach an answer').not.toContain(
        FULL_CARD_NUMBER,
      );
    }
    if (expected.maxToolMs !== undefined) {
      expect(stats.toolMs, 'tool time').toBeLessThan(expected.maxToolMs);
    }
  },
});
