import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatCompletionsAgent } from '../../adapters/chat-completions-agent.js';
import { defineModelScript } from '../../simulator/model-script.js';
import { listStaleFixtures } from '../report/trial-lists.js';
import { defineAgent } from '../spec/agent-spec.js';
import { readEvalSettings } from '../spec/settings.js';
import type { TaskDefinition } from '../spec/task-definition.js';
import { runTrial } from './trial-runner.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'harness-evals-dataset-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

// Echoes the question and its seed: each case (and trial) is its own recording.
const echo = defineModelScript({
  respond: (request) => ({ text: `${request.prompt} [${request.seed}]` }),
});
const task: TaskDefinition = {
  agent: defineAgent({
    suite: 'dataset',
    variants: ['v1'],
    provider: 'openai',
    modelScript: echo,
    run: createChatCompletionsAgent({ tools: [] }),
  }),
  id: 'D7',
  title: 'questions',
  cases: [{ id: 'c1', input: 'first?' }],
  check: () => {},
};
const settings = (mode: 'record' | 'replay') =>
  readEvalSettings({
    HARNESS_EVAL_ROOT: root,
    HARNESS_EVAL_MODE: mode,
    HARNESS_EVAL_SOURCE: 'simulator',
    HARNESS_EVAL_TRIAL: '2',
  });

describe('a trial of a dataset case', () => {
  it('records into its case folder with the case in its meta and seed, and replays it', async () => {
    const testCase = { id: 'c1', input: 'first?' };
    const recorded = await runTrial({
      task,
      variant: 'v1',
      trial: 2,
      settings: settings('record'),
      testCase,
    });
    expect(recorded.record).toMatchObject({
      case: 'c1',
      trial: 2,
      fixture: 'fixtures/D7/v1/c1/trial-2.json',
    });
    expect(recorded.run?.answer).toBe('first? [D7/c1/v1/2]');
    const cassette = JSON.parse(
      await readFile(join(root, 'fixtures/D7/v1/c1/trial-2.json'), 'utf8'),
    );
    expect(cassette.meta).toMatchObject({ task: 'D7', case: 'c1', trial: 2 });
    expect(recorded.record.tracePath).toBe('runs/eval/D7/v1/c1/trial-2.jsonl');

    const replayed = await runTrial({
      task,
      variant: 'v1',
      trial: 2,
      settings: settings('replay'),
      testCase,
    });
    expect(replayed.record.outcome).toBe('passed');
    expect(replayed.run?.answer).toBe('first? [D7/c1/v1/2]');
    expect(
      replayed.transcript &&
        'transcript' in replayed.transcript &&
        replayed.transcript.transcript.user,
    ).toBe('first?');

    // The case's input changed: its cassette is stale, and the command re-records that case.
    const changed = await runTrial({
      task,
      variant: 'v1',
      trial: 2,
      settings: settings('replay'),
      testCase: { id: 'c1', input: 'first, reworded?' },
    });
    expect(changed.record.outcome).toBe('stale');
    expect(changed.record.fixtureProblem).toBeUndefined();
    expect(listStaleFixtures([changed.record])[0]?.fixture).toBe('fixtures/D7/v1/c1/trial-2.json');
    expect(listStaleFixtures([changed.record])[0]?.rerecordCommand).toBe(
      'npm run record -- --task D7 --variant v1 --case c1 --trial 2 --simulated',
    );
    expect(changed.record.messages[0]).toContain(
      '(suite dataset, task D7, variant v1, case c1, trial 2)',
    );
  });

  it("refuses another case's cassette in its place", async () => {
    const other = await runTrial({
      task,
      variant: 'v1',
      trial: 2,
      settings: settings('record'),
      testCase: { id: 'c2', input: 'x' },
    });
    expect(other.record.messages).toEqual([]);
    const { copyFile } = await import('node:fs/promises');
    await copyFile(
      join(root, 'fixtures/D7/v1/c2/trial-2.json'),
      join(root, 'fixtures/D7/v1/c1/trial-2.json'),
    );
    const swapped = await runTrial({
      task,
      variant: 'v1',
      trial: 2,
      settings: settings('replay'),
      testCase: { id: 'c1', input: 'first?' },
    });
    expect(swapped.record.outcome).toBe('stale');
    // Not stale as a changed request is: another trial's cassette, named corrupt.
    expect(swapped.record.fixtureProblem).toBe('corrupt');
    expect(swapped.record.messages[0]).toContain(
      'its meta says suite dataset, task D7, variant v1, case c2, trial 2',
    );
  });
});

describe("a dataset trial's record", () => {
  // Issue 33: the HTML trial view could not show the case's expected answer.
  it("carries the case's expected value as text, a string as it is and anything else as JSON", async () => {
    const run = (expected: unknown) =>
      runTrial({
        task,
        variant: 'v1',
        trial: 2,
        settings: settings('record'),
        testCase: { id: 'c3', input: 'third?', expected },
      });
    expect((await run('Overdue')).record.expected).toBe('Overdue');
    expect((await run({ status: 'overdue', amount: 12 })).record.expected).toBe(
      '{\n  "status": "overdue",\n  "amount": 12\n}',
    );
    expect((await run(undefined)).record).not.toHaveProperty('expected');
  });
});
