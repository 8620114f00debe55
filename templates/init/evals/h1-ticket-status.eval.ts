import { defineTask } from 'harness-evals';
import { expect } from 'vitest';
import { helpdesk } from './helpdesk.agent.js';

defineTask({
  agent: helpdesk,
  id: 'H1',
  title: 'Ticket status',
  prompt: 'What is the status of ticket TCK-101?',
  floors: [{ variant: 'upgraded', passAt1: 0.6 }],
  check: ({ answer, toolCalls, stats }) => {
    expect(toolCalls.map((call) => call.tool)).toContain('get_ticket');
    expect(answer).toMatch(/waiting for parts/i);
    expect(stats.unconfirmedWrites).toBe(0);
  },
});
