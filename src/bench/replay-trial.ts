import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { createVirtualClock } from '../core/clock.js';
import { replayRefusingNetwork } from '../eval/replay-runtime.js';
import { createRefundDeskHarness } from '../refund-desk/variants.js';
import { cassettePath } from '../replay/cassette.js';
import { createAnthropicModel } from '../runtime/model-client.js';
import { runAgent } from '../runtime/run-agent.js';
import type { Measure } from './run.js';

const projectDir = fileURLToPath(new URL('../..', import.meta.url));

/** One whole trial replayed from its committed cassette: the SDK, the loop and the tools. */
export async function replayTrialRows(
  measure: Measure,
): Promise<Array<[string, string, string, string]>> {
  const harness = createRefundDeskHarness('upgraded', {
    projectDir,
    instructionFiles: ['AGENTS.md'],
  });
  const file = cassettePath(`${projectDir}/fixtures`, 'T1', 'upgraded', 1);
  let exchanges = 0;
  const trial = async () => {
    const replayed = await replayRefusingNetwork(
      { file, label: { task: 'T1', variant: 'upgraded', trial: 1 }, rerecordCommand: 'bench' },
      async (session) => {
        exchanges = session.cassette.exchanges.length;
        const client = new Anthropic({
          apiKey: 'bench',
          baseURL: session.baseURL,
          fetch: session.fetch,
          maxRetries: 0,
        });
        return runAgent({
          harness,
          model: createAnthropicModel({ client }),
          modelId: session.cassette.meta.model,
          prompt: "Why hasn't the refund for order ORD1001 arrived yet?",
          clock: createVirtualClock({ start: Date.parse(session.cassette.meta.now) }),
          mode: 'unattended',
        });
      },
    );
    if (replayed.problem || replayed.value?.status !== 'done') {
      throw new Error(`replay bench: ${replayed.problem?.message ?? replayed.value?.status}`);
    }
  };
  const { median, best } = await measure('replay one trial', trial, 1000);
  const ms = (value: number) => `${(value / 1000).toFixed(2)} ms`;
  return [
    [
      `replay one whole trial (T1 upgraded, ${exchanges} exchanges)`,
      ms(median),
      ms(best),
      '< 5 ms',
    ],
  ];
}
