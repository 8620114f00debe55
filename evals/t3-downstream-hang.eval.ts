import { defineTask, matchTrajectory } from 'harness-evals';
import { expect } from 'vitest';
import { refundDesk } from './refund-desk.agent.js';

defineTask({
  agent: refundDesk,
  id: 'T3',
  title: 'Downstream hang',
  prompt: 'Has the refund for order ORD4004 arrived?',
  floors: [{ variant: 'upgraded', passAt1: 0.6 }],
  check: ({ stats, answer, toolCalls, score }) => {
    // The hung payment lookup is tried at most twice (one retry), never hammered.
    score(
      matchTrajectory(
        toolCalls,
        [
          { tool: 'get_order', input: { order_id: 'ORD4004' } },
          { tool: 'get_payment', input: { order_id: 'ORD4004' } },
        ],
        { order: 'superset', counts: { get_payment: { max: 2 } }, name: 'lookups' },
      ),
    );
    // The payment system hangs 10 s; a harness with timeouts gives up at 3 s (virtual time).
    expect(stats.toolMs, 'tool time must stay under 5000 ms').toBeLessThan(5000);
    expect(answer, 'the run must still end with an answer').not.toBe('');
  },
});
