import { defineTask } from 'harness-evals';
import { expect } from 'vitest';
import { sandboxWritesOf } from '#reference-agents';
import { debugAgent } from './debug-agent.agent.js';

defineTask({
  agent: debugAgent,
  id: 'D1',
  title: 'Explain the failing test',
  prompt: 'The tests in test/math.spec.ts fail. Find out why and explain the cause.',
  floors: [{ variant: 'upgraded', passAt1: 0.6 }],
  check: ({ answer, result }) => {
    // The seed's demo: add(a, b) returns a - b.
    expect(answer, 'the answer must say that add subtracts').toMatch(/\badd\b[^\n]*\bsubtract/i);
    expect(sandboxWritesOf(result.store), 'explaining must not change any file').toEqual([]);
  },
});
