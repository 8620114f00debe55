import { lstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  agentModule,
  peerEvalFile,
  type Recording,
  readRecordings,
  writePeerProject,
} from './peer-workload.js';

const fixtures = new URL('../../fixtures', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'peer-workload-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Agent {
  PROMPT: string;
  runTrial(trial: number): Promise<{ answer: string; toolCalls: number; turns: number }>;
  checkAnswer(answer: string): boolean;
}

let written = 0;
async function loadAgent(recordings: readonly Recording[]): Promise<Agent> {
  written += 1;
  const file = join(dir, `agent-${written}.mjs`);
  writeFileSync(file, agentModule(recordings));
  return (await import(pathToFileURL(file).href)) as Agent;
}

describe('peer workload', () => {
  it('reads every recorded T2 upgraded trial: the messages sent and the responses', async () => {
    const recordings = await readRecordings(fixtures);
    expect(recordings).toHaveLength(5);
    for (const recording of recordings) {
      expect(recording.requests).toHaveLength(2);
      expect(recording.responses).toHaveLength(2);
    }
  });

  it('replays each recorded trial through the real tool lookups and passes the T2 check', async () => {
    const agent = await loadAgent(await readRecordings(fixtures));
    expect(agent.PROMPT).toBe('How far along is the refund for order ORD3003?');
    const trials = await Promise.all([1, 2, 3, 4, 5, 6].map((trial) => agent.runTrial(trial)));
    for (const trial of trials) {
      expect(trial.turns).toBe(2);
      expect(agent.checkAnswer(trial.answer)).toBe(true);
    }
    // Recorded trial 4 looks up the payment too; trial 6 replays recorded trial 1.
    expect(trials.map((trial) => trial.toolCalls)).toEqual([1, 1, 1, 2, 1, 1]);
    expect(trials[5]!.answer).toBe(trials[0]!.answer);
    expect(agent.checkAnswer('Your refund is on its way.')).toBe(false);
  });

  it('refuses a model request that differs from the recording', async () => {
    const [first] = await readRecordings(fixtures);
    const diverged = { ...first!, requests: [first!.requests[0]!, '[]'] };
    const agent = await loadAgent([diverged]);
    await expect(agent.runTrial(1)).rejects.toThrow(
      'model turn 2: the request differs from the recording',
    );
  });

  it('writes one eval file per peer with the trial count baked in', () => {
    const evalite = peerEvalFile('evalite', 600);
    expect(evalite.name).toBe('refund.eval.ts');
    expect(evalite.text).toContain('trialCount: 600,');
    const vitestEvals = peerEvalFile('vitest-evals', 600);
    expect(vitestEvals.name).toBe('refund.test.ts');
    expect(vitestEvals.text).toContain('Array.from({ length: 600 }');
  });

  it('lays out a peer project with the agent, the eval file and node_modules linked', async () => {
    const project = join(dir, 'evalite-1');
    const nodeModules = join(dir, 'fake-node-modules');
    writePeerProject({
      dir: project,
      peer: 'evalite',
      trials: 1,
      recordings: await readRecordings(fixtures),
      nodeModules,
    });
    expect(readFileSync(join(project, 'refund.eval.ts'), 'utf8')).toContain('trialCount: 1,');
    expect(readFileSync(join(project, 'refund-agent.mjs'), 'utf8')).toContain(
      'export async function runTrial',
    );
    expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'))).toMatchObject({
      type: 'module',
    });
    expect(lstatSync(join(project, 'node_modules')).isSymbolicLink()).toBe(true);
  });
});
