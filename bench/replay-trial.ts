import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { createVirtualClock } from '../src/core/clock.js';
import { replayRefusingNetwork } from '../src/eval/trial/replay-runtime.js';
import { createAnthropicModel } from '../src/model-api/model-client.js';
import { createRefundDeskHarness } from '../src/refund-desk/variants.js';
import { cassettePath } from '../src/replay/cassette.js';
import { readCassette } from '../src/replay/cassette-file.js';
import { replayResponse } from '../src/replay/http-exchange.js';
import { runAgent } from '../src/runtime/run-agent.js';
import type { Measure } from './micro-measure.js';

const projectDir = fileURLToPath(new URL('..', import.meta.url));

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
  const sdk = await measureSdkAlone(measure);
  const ms = (value: number) => `${(value / 1000).toFixed(2)} ms`;
  return [
    [
      `replay one whole trial (T1 upgraded, ${exchanges} exchanges)`,
      ms(median),
      ms(best),
      '< 5 ms',
    ],
    [
      `floor: the SDK alone, a T2 trial's ${sdk.calls} model calls`,
      ms(sdk.median),
      ms(sdk.best),
      '',
    ],
  ];
}

/**
 * The floor under a replayed trial: the same Messages requests through the real SDK, each
 * answered in process with its recorded response. No cassette file, no matching, no agent
 * loop, no trace, no vitest: what any runner that keeps the real SDK pays.
 */
async function measureSdkAlone(
  measure: Measure,
): Promise<{ median: number; best: number; calls: number }> {
  const cassette = await readCassette(cassettePath(`${projectDir}/fixtures`, 'T2', 'upgraded', 1));
  let next = 0;
  const client = new Anthropic({
    apiKey: 'bench',
    baseURL: 'http://replay.local',
    maxRetries: 0,
    fetch: async () => replayResponse(cassette.exchanges[next++]!.response),
  });
  const bodies = cassette.exchanges.map(
    (exchange) => exchange.request.body as Anthropic.MessageCreateParamsNonStreaming,
  );
  const { median, best } = await measure('the SDK alone', async () => {
    next = 0;
    for (const body of bodies) await client.messages.create(body);
  });
  return { median, best, calls: bodies.length };
}
