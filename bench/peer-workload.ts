import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The replayed refund trial (T2 upgraded) for another eval runner: each peer runs the agent
 * of peer-agent.mjs (this runtime's refund desk, the real SDK, the recorded responses
 * answered in process), so `npm run bench:peers` compares the same work.
 */
export type PeerName = 'evalite' | 'vitest-evals';

/** Exact versions, installed on demand into a throwaway directory (never our package.json). */
export const PEER_PACKAGES: Readonly<Record<PeerName, Readonly<Record<string, string>>>> = {
  evalite: { evalite: '0.19.0', vitest: '4.1.12' },
  'vitest-evals': { 'vitest-evals': '0.16.1', vitest: '4.1.12' },
};

export const PEER_AGENT = fileURLToPath(new URL('./peer-agent.mjs', import.meta.url));

/**
 * The module a peer's eval file imports: peer-agent.mjs re-exported from a path under
 * node_modules/, which vitest loads natively (as our eval worker loads dist/), where a file
 * outside node_modules would go through vite's transform, module by module.
 */
export function writeAgentShim(dir: string): string {
  const shim = join(dir, 'node_modules', 'harness-bench-agent.mjs');
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  writeFileSync(shim, `export * from ${JSON.stringify(pathToFileURL(PEER_AGENT).href)};\n`);
  return shim;
}

/** The eval file a peer runs: `trials` trials of the agent, each checked like our T2. */
export function peerEvalFile(
  peer: PeerName,
  trials: number,
  agent: string,
): { name: string; text: string } {
  const from = JSON.stringify(agent);
  if (peer === 'evalite') {
    return {
      name: 'refund.eval.ts',
      text: `import { evalite } from 'evalite';
import { checkAnswer, PROMPT, runRefundTrial } from ${from};

let next = 0;
evalite('refund desk T2, replayed', {
  data: [{ input: PROMPT }],
  trialCount: ${trials},
  task: async () => {
    next += 1;
    return (await runRefundTrial(next)).answer;
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
import { checkAnswer, runRefundTrial } from ${from};

// vitest-evals wants the run as ordered events: the agent's messages, as its docs map them.
const events = (messages) =>
  messages.flatMap(({ role, content }) =>
    typeof content === 'string'
      ? [{ type: 'message', role, content }]
      : content.map((block) =>
          block.type === 'tool_use'
            ? { type: 'tool_call', id: block.id, name: block.name, arguments: block.input }
            : block.type === 'tool_result'
              ? { type: 'tool_result', toolCallId: block.tool_use_id, content: block.content }
              : { type: 'message', role, content: block.text ?? '' },
        ),
  );

const harness = createHarness({
  name: 'refund-desk',
  run: async ({ input }) => {
    const { answer, messages } = await runRefundTrial(input);
    return { output: answer, events: events(messages) };
  },
});

describeEval('refund desk T2, replayed', { harness }, (it) => {
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

/** Write one peer project: package.json, the eval file (importing `shim`), node_modules linked in. */
export function writePeerProject(options: {
  dir: string;
  peer: PeerName;
  trials: number;
  shim: string;
  nodeModules: string;
}): void {
  mkdirSync(options.dir, { recursive: true });
  writeFileSync(join(options.dir, 'package.json'), '{ "type": "module", "private": true }\n');
  const file = peerEvalFile(
    options.peer,
    options.trials,
    `./${relative(options.dir, options.shim)}`,
  );
  writeFileSync(join(options.dir, file.name), file.text);
  symlinkSync(options.nodeModules, join(options.dir, 'node_modules'));
}
