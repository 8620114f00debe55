import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { writeAgentShim } from './peer-workload.js';

interface PeerAgent {
  PROMPT: string;
  RECORDINGS: Array<{ responses: unknown[] }>;
  runRefundTrial(
    trial: number,
    onRequest?: (body: string) => void,
  ): Promise<{ answer: string; toolCalls: number; steps: number; messages: unknown[] }>;
  checkAnswer(answer: string): boolean;
}

const fixtures = fileURLToPath(new URL('../fixtures/T2/upgraded', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'peer-agent-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// Through the shim, as the peers load it: natively, from dist/ (built by the global setup).
const agent = (await import(pathToFileURL(writeAgentShim(dir)).href)) as PeerAgent;

describe('peer-agent.mjs (the agent every runner runs in bench:peers)', () => {
  it('replays each recorded T2 trial through this runtime and the real SDK, passing the T2 check', async () => {
    expect(agent.PROMPT).toBe('How far along is the refund for order ORD3003?');
    expect(agent.RECORDINGS).toHaveLength(5);
    const trials = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((trial) => agent.runRefundTrial(trial)),
    );
    for (const trial of trials) {
      expect(trial.steps).toBe(2);
      expect(agent.checkAnswer(trial.answer)).toBe(true);
    }
    // Recorded trial 4 looks up the payment too; trial 6 replays recorded trial 1.
    expect(trials.map((trial) => trial.toolCalls)).toEqual([1, 1, 1, 2, 1, 1]);
    expect(trials[5]!.answer).toBe(trials[0]!.answer);
    expect(agent.checkAnswer('Your refund is on its way.')).toBe(false);
  });

  it('sends exactly the recorded requests: the same work as the replayed eval trial, which matches strictly', async () => {
    for (const trial of [1, 2, 3, 4, 5]) {
      const sent: unknown[] = [];
      await agent.runRefundTrial(trial, (body) => sent.push(JSON.parse(body)));
      const cassette = JSON.parse(readFileSync(join(fixtures, `trial-${trial}.json`), 'utf8'));
      expect(sent).toEqual(
        cassette.exchanges.map((exchange: { request: { body: unknown } }) => exchange.request.body),
      );
    }
  });
});
