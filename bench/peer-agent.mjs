// The refund-desk agent built on this runtime (the built dist/), with the real
// @anthropic-ai/sdk client and an in-process fetch that answers each trial's model calls with
// the recorded responses of a committed cassette of T2 upgraded: no network, no msw, no
// cassette read per trial, no matching, no trace. `npm run bench:peers` runs exactly this
// inside evalite and vitest-evals (through a module under node_modules, so each loads it
// natively), and alone in a plain loop (agent-loop.mjs): a runner's harness overhead is its
// cost per trial minus the agent's.
//
// It uses the package's public API (dist/index.js) and the reference agents' entry, as
// evals/ does. Both load vitest too (defineTask): in a peer's worker that is a second vitest
// copy, loaded once per process, which the per-trial figures (600 vs 1) cancel out.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { createAnthropicModel, createVirtualClock, runAgent } from '../dist/index.js';
import { createRefundDeskHarness } from '../dist/reference-agents.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const TASK = { task: 'T2', variant: 'upgraded' };
const FIXTURES = join(ROOT, 'fixtures', TASK.task, TASK.variant);

/** The check of evals/t2-order-not-found.eval.ts: ask to check the number, or say it is missing. */
const CHECK =
  /\b(check|verify|double-check|confirm)\b.*\border\b|does not exist|doesn't exist|could not find|couldn't find/i;

/** Every recorded trial once, at load: its clock, model and response bodies, ready to answer. */
export const RECORDINGS = readdirSync(FIXTURES)
  .filter((name) => /^trial-\d+\.json$/.test(name))
  .sort((a, b) => Number(a.match(/\d+/)[0]) - Number(b.match(/\d+/)[0]))
  .map((name) => {
    const { meta, exchanges } = JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));
    return {
      start: Date.parse(meta.now),
      model: meta.model,
      prompt: exchanges[0].request.body.messages[0].content,
      responses: exchanges.map(({ response }) => {
        if ('events' in response) {
          throw new Error(
            `${join(FIXTURES, name)}: a streamed response; the peers replay JSON bodies`,
          );
        }
        const body =
          typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
        return { status: response.status, headers: response.headers ?? {}, body };
      }),
    };
  });
if (RECORDINGS.length === 0) throw new Error(`${FIXTURES} holds no trial-N.json cassette`);
export const PROMPT = RECORDINGS[0].prompt;

// One SDK client for every trial, as the eval's replay has one per worker: a trial's calls
// carry its session in a header, and its own fetch answers them.
const SESSION = 'x-bench-trial';
const sessions = new Map();
let nextSession = 0;
const client = new Anthropic({
  apiKey: 'bench-without-key',
  baseURL: 'http://in-process.invalid',
  maxRetries: 0,
  fetch: async (_url, init) => {
    const id = new Headers(init?.headers).get(SESSION);
    const answer = sessions.get(id);
    if (!answer) throw new TypeError(`peer-agent: no trial session '${id}' for this request`);
    return answer(init?.body);
  },
});

/**
 * Trial n (from 1) replays recorded trial ((n - 1) mod recorded) + 1, as the bench project
 * does. `onRequest` (tests) sees each request body as the SDK sent it.
 */
export async function runRefundTrial(trial, onRequest) {
  const recording = RECORDINGS[(trial - 1) % RECORDINGS.length];
  nextSession += 1;
  const id = String(nextSession);
  let next = 0;
  sessions.set(id, (body) => {
    onRequest?.(body);
    const response = recording.responses[next];
    if (!response) {
      throw new Error(
        `trial ${trial}: a model call past the ${recording.responses.length} recorded`,
      );
    }
    next += 1;
    return new Response(response.body, { status: response.status, headers: response.headers });
  });
  try {
    // A fresh harness per trial, as the eval builds one.
    const result = await runAgent({
      harness: createRefundDeskHarness(TASK.variant, {
        projectDir: ROOT,
        instructionFiles: ['AGENTS.md'],
      }),
      model: createAnthropicModel({ client, headers: { [SESSION]: id } }),
      modelId: recording.model,
      prompt: recording.prompt,
      clock: createVirtualClock({ start: recording.start }),
      mode: 'unattended',
    });
    if (result.status !== 'done' || next !== recording.responses.length) {
      throw new Error(
        `trial ${trial}: the run ended ${result.status}${result.detail ? ` (${result.detail})` : ''} after ${next} of ${recording.responses.length} recorded model calls`,
      );
    }
    return {
      answer: result.answer,
      toolCalls: result.stats.toolCalls,
      steps: result.stats.steps,
      messages: result.messages,
    };
  } finally {
    sessions.delete(id);
  }
}

/** The T2 check of a final answer. */
export function checkAnswer(answer) {
  return CHECK.test(answer);
}
