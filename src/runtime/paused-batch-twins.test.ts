import { describe, expect, it } from 'vitest';
import { createVirtualClock } from '../core/clock.js';
import { createMemoryCheckpointStore } from './checkpoint-store.js';
import type { Harness } from './harness.js';
import { resumeAgent } from './resume-agent.js';
import { runAgent } from './run-agent.js';
import { createScriptedModel, textTurn, toolTurn } from './scripted-model.js';
import { refundTool } from './testing/write-tools.js';
import type { Approver } from './types.js';

const clock = () => createVirtualClock({ start: Date.parse('2026-10-01T09:00:00Z') });

function desk() {
  const { tool: refund, executed } = refundTool();
  const harness: Harness = {
    name: 'desk',
    tools: [refund],
    system: () => 'You refund orders.',
    permissions: { rules: [], decide: () => ({ effect: 'ask', rule: undefined, reason: 'human' }) },
    limits: { maxSteps: 5 },
  };
  return { harness, executed };
}

const byOrder =
  (answers: Record<string, boolean>): Approver =>
  async (call) =>
    answers[(call.input as { order_id: string }).order_id] ?? 'defer';

/** Pause a batch of two refunds under ids `a` and `b`, the human answering as `approver` does. */
async function pauseTwo(a: string, b: string, approver: Approver) {
  const { harness, executed } = desk();
  const checkpoints = createMemoryCheckpointStore();
  const paused = await runAgent({
    harness,
    model: createScriptedModel([
      toolTurn([
        { name: 'refund', input: { order_id: 'A' }, id: a },
        { name: 'refund', input: { order_id: 'B' }, id: b },
      ]),
    ]),
    modelId: 'scripted',
    prompt: 'Refund A and B',
    clock: clock(),
    mode: 'interactive',
    approver,
    runId: 'run',
    checkpoints,
  });
  expect(paused.status).toBe('awaiting_approval');
  return { harness, executed, checkpoints };
}

// Two ids the redaction at rest masks alike, and one id two calls share (a scripted model can).
for (const [label, a, b] of [
  ['two ids with one masked form', 'call-4111111111111111', 'call-4111000000021111'],
  ['one id for two calls', 'toolu_same', 'toolu_same'],
] as const) {
  describe(`a paused batch with ${label}`, () => {
    it('does not run the call the human answered "later" on a plain resume', async () => {
      const { harness, executed, checkpoints } = await pauseTwo(a, b, byOrder({ A: true }));
      expect(executed).toEqual(['A']);
      const resumed = await resumeAgent({
        runId: 'run',
        checkpoints,
        harness,
        model: createScriptedModel([textTurn('done')]),
        clock: clock(),
        approver: async () => 'defer',
      });
      expect(executed).toEqual(['A']);
      expect(resumed.status).toBe('awaiting_approval');
    });

    it("does not take an approval given by the first call's id for the other's", async () => {
      const { harness, executed, checkpoints } = await pauseTwo(a, b, async () => 'defer');
      const resumed = await resumeAgent({
        runId: 'run',
        checkpoints,
        harness,
        model: createScriptedModel([textTurn('done')]),
        clock: clock(),
        approvals: { [a]: true },
      });
      expect(executed).not.toContain('B');
      expect(resumed.status).toBe('awaiting_approval');
    });
  });
}
