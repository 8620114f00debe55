import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRefundDeskHarness,
  REFUND_DESK_VARIANTS,
  type RefundDeskVariant,
} from '../../reference-agents.js';
import { loadTranscript } from '../report/load-transcripts.js';
import { type AgentSpec, defineAgent } from '../spec/agent-spec.js';
import { readEvalSettings } from '../spec/settings.js';
import { runTrial } from './trial-runner.js';

const repo = join(import.meta.dirname, '../../..');
let project: string;
beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'harness-evals-transcript-'));
  await mkdir(join(project, 'fixtures/T2/upgraded'), { recursive: true });
  await copyFile(join(repo, 'AGENTS.md'), join(project, 'AGENTS.md'));
  await copyFile(
    join(repo, 'fixtures/T2/upgraded/trial-1.json'),
    join(project, 'fixtures/T2/upgraded/trial-1.json'),
  );
});
afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

const refundDesk = defineAgent({
  suite: 'refund-desk',
  variants: REFUND_DESK_VARIANTS,
  mode: 'unattended',
  createHarness: (variant, options) =>
    createRefundDeskHarness(variant as RefundDeskVariant, {
      projectDir: options.projectDir,
      instructionFiles: ['AGENTS.md'],
    }),
});

/** Trial 1 of T2 upgraded, replayed from the project's cassette. */
const runT2 = (agent: AgentSpec, prompt = 'How far along is the refund for order ORD3003?') =>
  runTrial({
    task: { agent, id: 'T2', title: 'Order not found', prompt, check: () => {} },
    variant: 'upgraded',
    trial: 1,
    settings: readEvalSettings({ HARNESS_EVAL_ROOT: project, HARNESS_EVAL_TRIALS: '1' }),
  });

describe('a replayed trial that errors', () => {
  it('keeps where its cassette came from, for the report header', async () => {
    // Sends the recorded requests as they were, then returns what no adapter may.
    const outcome = await runT2(
      defineAgent({
        suite: 'refund-desk',
        variants: REFUND_DESK_VARIANTS,
        run: async ({ fetch, baseURL }) => {
          const file = join(project, 'fixtures/T2/upgraded/trial-1.json');
          const cassette = JSON.parse(await readFile(file, 'utf8'));
          for (const { request } of cassette.exchanges) {
            const answer = await fetch(`${baseURL}${request.path}`, {
              method: request.method,
              headers: request.headers,
              body: JSON.stringify(request.body),
            });
            await answer.text();
          }
          return { text: 'no answer field' } as never;
        },
      }),
    );
    expect(outcome.record.outcome).toBe('errored');
    expect(outcome.record.messages.join('; ')).toContain('returned an answer of type undefined');
    expect(outcome.record).toMatchObject({
      source: 'simulator',
      model: expect.any(String),
      recordedAt: expect.any(String),
      cassetteHash: expect.any(String),
    });
  });
});

describe('a replayed trial that reached for the network', () => {
  it('keeps where its cassette came from too', async () => {
    const outcome = await runT2(
      defineAgent({
        suite: 'refund-desk',
        variants: REFUND_DESK_VARIANTS,
        run: async () => {
          await globalThis.fetch('http://127.0.0.1:9/');
          return { answer: 'unreachable' };
        },
      }),
    );
    expect(outcome.record.outcome).toBe('errored');
    expect(outcome.record.messages.join('; ')).toMatch(/network/i);
    expect(outcome.record).toMatchObject({ source: 'simulator', cassetteHash: expect.any(String) });
  });
});

describe('a stale trial', () => {
  it('keeps where its cassette came from too', async () => {
    // Not the prompt the cassette holds: its first request no longer matches.
    const outcome = await runT2(refundDesk, 'Where is my refund for order ORD9999?');
    expect(outcome.record.outcome).toBe('stale');
    expect(outcome.record).toMatchObject({ source: 'simulator', cassetteHash: expect.any(String) });
  });
});

describe('a replayed trial hands over its transcript', () => {
  it('equal to the one the report would read back from its cassette and trace', async () => {
    const outcome = await runT2(refundDesk);
    expect(outcome.record.outcome, outcome.record.messages.join('; ')).toBe('passed');
    const fromDisk = await loadTranscript(outcome.record, project);
    expect('transcript' in fromDisk && fromDisk.transcript.turns.length).toBeGreaterThan(1);
    expect(outcome.transcript).toEqual(fromDisk);
    const handed = outcome.transcript;
    // The trace's part is in it: the harness's decision on each tool call.
    const calls = (handed && 'transcript' in handed ? handed.transcript : undefined)?.turns.flatMap(
      (turn) => turn.blocks.flatMap((block) => (block.kind === 'tool' ? [block.call] : [])),
    );
    expect(calls?.length).toBeGreaterThan(0);
    expect(calls?.every((call) => typeof call.decision === 'string')).toBe(true);
  });
});
