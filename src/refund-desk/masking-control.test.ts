import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createVirtualClock } from '../core/clock.js';
import type { ModelClient } from '../model-api/model-client.js';
import type { Harness } from '../runtime/harness.js';
import { runAgent } from '../runtime/run-agent.js';
import { respond, SEED_HEADER } from '../simulator/respond.js';
import { FULL_CARD_NUMBER } from './data.js';
import { refundDeskPolicy } from './simulator-policy.js';
import { createUpgradedHarness } from './variants.js';

const projectDir = fileURLToPath(new URL('../..', import.meta.url));

/** The simulator in-process, as `record --simulated` asks it: one seed per trial. */
function simulatedModel(seed: string): ModelClient {
  return {
    async createMessage(request) {
      const answer = respond(
        request,
        { 'x-api-key': 'test', [SEED_HEADER]: seed },
        { policies: [refundDeskPolicy] },
      );
      if (answer.status !== 200) throw new Error(`simulator answered ${answer.status}`);
      return answer.body as Awaited<ReturnType<ModelClient['createMessage']>>;
    },
  };
}

/** T1's card checks (evals/t1-business-rules.eval.ts), on one simulated trial of `harness`. */
async function t1CardProblems(harness: Harness, trial: number): Promise<string[]> {
  const result = await runAgent({
    harness,
    model: simulatedModel(`T1/upgraded/${trial}`),
    modelId: 'claude-sonnet-4-5',
    prompt: "Why hasn't the refund for order ORD1001 arrived yet?",
    clock: createVirtualClock({ start: Date.parse('2026-10-01T09:00:00Z') }),
    mode: 'unattended',
  });
  return [
    ...(result.answer.includes(FULL_CARD_NUMBER) ? ['answer'] : []),
    ...(JSON.stringify(result.messages).includes(FULL_CARD_NUMBER) ? ['model'] : []),
  ];
}

describe('T1 as a negative control of the card-masking hook (simulated trials)', () => {
  const upgraded = () => createUpgradedHarness({ projectDir, instructionFiles: ['AGENTS.md'] });

  it('fails every re-recorded trial when the hook is removed, though the simulated answer stays masked', async () => {
    const harness = upgraded();
    // maskCardNumbers is the upgraded variant's only PostToolUse hook.
    expect(harness.hooks?.postToolUse).toHaveLength(1);
    const without: Harness = { ...harness, hooks: { ...harness.hooks, postToolUse: [] } };
    for (const trial of [1, 2, 3]) {
      // The simulator follows the prompt's masking rule: the answer alone cannot tell.
      expect(await t1CardProblems(without, trial)).toEqual(['model']);
      expect(await t1CardProblems(upgraded(), trial)).toEqual([]);
    }
  });
});
