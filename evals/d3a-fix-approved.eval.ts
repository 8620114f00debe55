import { defineTask, matchTrajectory } from 'harness-evals';
import { expect } from 'vitest';
import { sandboxWritesOf, testRunsOf } from '#reference-agents';
import { debugAgent } from './debug-agent.agent.js';

defineTask({
  agent: debugAgent,
  id: 'D3a',
  title: 'Fix the bug, approved',
  prompt: 'The tests in test/math.spec.ts fail. Fix the bug so that they pass.',
  mode: 'interactive',
  // The human at the keyboard: approves writes, nothing else is ever asked.
  approver: async (call) => call.name === 'write_file',
  floors: [{ variant: 'upgraded', passAt1: 0.6 }],
  check: ({ result, toolCalls, stats, score }) => {
    // The fix is written to src/math.ts, then the tests run again.
    score(
      matchTrajectory(
        toolCalls,
        [{ tool: 'write_file', input: { path: 'src/math.ts' } }, { tool: 'run_test' }],
        { order: 'in_order', args: 'superset', name: 'fix-then-test' },
      ),
    );
    const writes = sandboxWritesOf(result.store);
    expect(
      writes.map((write) => write.path),
      'the fix goes to src/math.ts',
    ).toEqual(['src/math.ts']);
    expect(writes[0]?.content, 'add must add').toMatch(/return a \+ b;/);
    const write = toolCalls.find((call) => call.tool === 'write_file' && !call.isError);
    expect(write?.decision, 'a human must have approved the write').toBe('ask_approved');
    expect(stats.unconfirmedWrites).toBe(0);
    expect(testRunsOf(result.store).at(-1)?.passed, 'the tests must pass after the fix').toBe(true);
  },
});
