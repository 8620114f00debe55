import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ORDERS, PAYMENTS } from '../refund-desk/data.js';
import { cassettePath, isSseResponse } from '../replay/cassette.js';
import { readCassette } from '../replay/cassette-file.js';

/**
 * The replayed refund trial (T2, upgraded) written for another eval runner, so
 * `npm run bench:peers` measures the peers on the workload our own figure uses: the
 * recorded model turns, answered in process and strictly matched; the real tool lookups
 * (`get_order`, `get_payment` on the refund desk's data); the T2 code check of the answer.
 * Trial n replays recorded trial ((n - 1) mod recorded) + 1, as the bench project does.
 */
export type PeerName = 'evalite' | 'vitest-evals';

/** Exact versions, installed on demand into a throwaway directory (never our package.json). */
export const PEER_PACKAGES: Readonly<Record<PeerName, Readonly<Record<string, string>>>> = {
  evalite: { evalite: '0.19.0', vitest: '4.1.12' },
  'vitest-evals': { 'vitest-evals': '0.16.1', vitest: '4.1.12' },
};

/** One recorded trial: per model call, the messages it was sent (JSON) and the response body. */
export interface Recording {
  requests: string[];
  responses: unknown[];
}

export const PEER_TASK = { task: 'T2', variant: 'upgraded' } as const;

/** The check of evals/t2-order-not-found.eval.ts: ask to check the number, or say it is missing. */
const T2_CHECK =
  /\b(check|verify|double-check|confirm)\b.*\border\b|does not exist|doesn't exist|could not find|couldn't find/i;

/** Every recorded trial of T2 upgraded, from the committed cassettes (validated on the way). */
export async function readRecordings(fixturesDir: string): Promise<Recording[]> {
  const { task, variant } = PEER_TASK;
  const count = readdirSync(join(fixturesDir, task, variant)).filter((name) =>
    /^trial-\d+\.json$/.test(name),
  ).length;
  const recordings: Recording[] = [];
  for (let trial = 1; trial <= count; trial += 1) {
    const file = cassettePath(fixturesDir, task, variant, trial);
    const cassette = await readCassette(file);
    recordings.push({
      requests: cassette.exchanges.map(({ request }) =>
        JSON.stringify((request.body as { messages: unknown }).messages),
      ),
      responses: cassette.exchanges.map(({ response }) => {
        if (isSseResponse(response)) {
          throw new Error(`${file}: a streamed response; the peer workload replays JSON bodies`);
        }
        return response.body;
      }),
    });
  }
  if (recordings.length === 0) {
    throw new Error(`${join(fixturesDir, task, variant)} holds no trial-N.json cassette`);
  }
  return recordings;
}

/** The agent every peer runs: a plain ES module, so no runner needs our code or our SDK. */
export function agentModule(recordings: readonly Recording[]): string {
  const prompt = (JSON.parse(recordings[0]!.requests[0]!) as Array<{ content: string }>)[0]!
    .content;
  return `// Written by src/bench/peer-workload.ts (npm run bench:peers): harness-evals' replayed
// refund trial (${PEER_TASK.task} ${PEER_TASK.variant}) for another eval runner.
const RECORDINGS = ${JSON.stringify(recordings)};
const ORDERS = ${JSON.stringify(ORDERS)};
const PAYMENTS = ${JSON.stringify(PAYMENTS)};
const CHECK = ${T2_CHECK.toString()};
export const PROMPT = ${JSON.stringify(prompt)};

const TOOLS = {
  get_order: ({ order_id }) => {
    const order = ORDERS[order_id];
    if (!order) {
      throw new Error(\`order \${order_id} does not exist; ask the user to check the order number (example: ORD1001)\`);
    }
    return order;
  },
  get_payment: ({ order_id }) => {
    const payment = PAYMENTS[order_id];
    if (!payment) {
      throw new Error(\`no payment record for \${order_id}; it may be cash on delivery or not yet synced\`);
    }
    return payment;
  },
};

/** The recorded model: each call must send exactly the recorded messages, or it throws. */
function replayedModel(recording) {
  let turn = 0;
  return async (messages) => {
    const expected = recording.requests[turn];
    if (expected === undefined) throw new Error(\`no recorded model turn \${turn + 1}\`);
    if (JSON.stringify(messages) !== expected) {
      throw new Error(\`model turn \${turn + 1}: the request differs from the recording\`);
    }
    const response = structuredClone(recording.responses[turn]);
    turn += 1;
    return response;
  };
}

/** One trial: model turns until the model stops asking for tools. trial counts from 1. */
export async function runTrial(trial) {
  const model = replayedModel(RECORDINGS[(trial - 1) % RECORDINGS.length]);
  const messages = [{ content: PROMPT, role: 'user' }];
  const events = [{ type: 'message', role: 'user', content: PROMPT }];
  let toolCalls = 0;
  for (let turn = 1; ; turn += 1) {
    const response = await model(messages);
    messages.push({ content: response.content, role: 'assistant' });
    if (response.stop_reason !== 'tool_use') {
      const answer = response.content.filter((block) => block.type === 'text').map((block) => block.text).join('');
      events.push({ type: 'message', role: 'assistant', content: answer });
      return { answer, toolCalls, turns: turn, events };
    }
    const results = [];
    for (const block of response.content) {
      if (block.type !== 'tool_use') continue;
      toolCalls += 1;
      events.push({ type: 'tool_call', id: block.id, name: block.name, arguments: block.input });
      let content;
      let isError = false;
      try {
        content = JSON.stringify(TOOLS[block.name](block.input));
      } catch (error) {
        content = \`\${block.name} failed: \${error.message}\`;
        isError = true;
      }
      events.push({ type: 'tool_result', toolCallId: block.id, name: block.name, content });
      results.push({ content, ...(isError ? { is_error: true } : {}), tool_use_id: block.id, type: 'tool_result' });
    }
    messages.push({ content: results, role: 'user' });
  }
}

/** The code check of the final answer. */
export function checkAnswer(answer) {
  return CHECK.test(answer);
}
`;
}

/** The eval file a peer runs: `trials` trials of the agent above, each code-checked. */
export function peerEvalFile(peer: PeerName, trials: number): { name: string; text: string } {
  if (peer === 'evalite') {
    return {
      name: 'refund.eval.ts',
      text: `import { evalite } from 'evalite';
import { checkAnswer, PROMPT, runTrial } from './refund-agent.mjs';

let next = 0;
evalite('refund desk ${PEER_TASK.task}, replayed', {
  data: [{ input: PROMPT }],
  trialCount: ${trials},
  task: async () => {
    next += 1;
    return (await runTrial(next)).answer;
  },
  scorers: [{ name: 'code check', scorer: ({ output }) => (checkAnswer(output) ? 1 : 0) }],
});
`,
    };
  }
  return {
    name: 'refund.test.ts',
    text: `import { expect } from 'vitest';
import { createHarness, describeEval } from 'vitest-evals';
import { checkAnswer, runTrial } from './refund-agent.mjs';

const harness = createHarness({
  name: 'refund-desk',
  run: async ({ input }) => {
    const { answer, events } = await runTrial(input);
    return { output: answer, events };
  },
});

describeEval('refund desk ${PEER_TASK.task}, replayed', { harness }, (it) => {
  it.for(Array.from({ length: ${trials} }, (_, index) => index + 1))('trial %i', async (trial, { run }) => {
    const result = await run(trial);
    expect(checkAnswer(result.output)).toBe(true);
  });
});
`,
  };
}

/** The command that runs a peer's eval once, as its docs say, from the project directory. */
export function peerCommand(peer: PeerName, nodeModules: string): string[] {
  return peer === 'evalite'
    ? [join(nodeModules, 'evalite/dist/bin.js'), 'run']
    : [join(nodeModules, 'vitest/vitest.mjs'), 'run', '--reporter=vitest-evals/reporter'];
}

/** Write one peer project: package.json, the agent, the eval file, node_modules linked in. */
export function writePeerProject(options: {
  dir: string;
  peer: PeerName;
  trials: number;
  recordings: readonly Recording[];
  nodeModules: string;
}): void {
  mkdirSync(options.dir, { recursive: true });
  writeFileSync(join(options.dir, 'package.json'), '{ "type": "module", "private": true }\n');
  writeFileSync(join(options.dir, 'refund-agent.mjs'), agentModule(options.recordings));
  const file = peerEvalFile(options.peer, options.trials);
  writeFileSync(join(options.dir, file.name), file.text);
  symlinkSync(options.nodeModules, join(options.dir, 'node_modules'));
}
