import { defineJudge, defineTask, matchTrajectory } from 'harness-evals';
import { expect } from 'vitest';
import { helpdesk } from './helpdesk.agent.js';
import { helpdeskJudge } from './helpdesk.model.js';

defineTask({
  agent: helpdesk,
  id: 'H1',
  title: 'Ticket status',
  prompt: 'What is the status of ticket TCK-101?',
  floors: [{ variant: 'upgraded', passAt1: 0.6 }],
  // A judged check: a model grades the answer against the rubric. Its calls are recorded
  // beside the trial's (fixtures/H1/<variant>/trial-<n>.judge.json) and replayed like them.
  judges: [
    defineJudge({
      name: 'clear-status',
      rubric: { file: 'evals/rubrics/clear-status.md' },
      // Offline, `npm run record -- --simulated` asks this script instead of a judge model.
      modelScript: helpdeskJudge,
    }),
  ],
  check: ({ answer, toolCalls, stats, score }) => {
    // The ticket is looked up, and nothing is closed.
    score(
      matchTrajectory(toolCalls, [{ tool: 'get_ticket', input: { ticket_id: 'TCK-101' } }], {
        order: 'superset',
        deny: ['close_ticket'],
        name: 'lookup',
      }),
    );
    expect(answer).toMatch(/waiting for parts/i);
    expect(stats.unconfirmedWrites).toBe(0);
  },
});
