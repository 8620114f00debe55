import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createVirtualClock } from '../core/clock.js';
import { rejectionOf } from '../core/testing/rejection-of.js';
import { CheckpointError } from './checkpoint.js';
import { type CheckpointStore, createMemoryCheckpointStore } from './checkpoint-store.js';
import { defineTool } from './define-tool.js';
import type { Harness } from './harness.js';
import { resumeAgent } from './resume-agent.js';
import { runAgent } from './run-agent.js';
import { createScriptedModel, textTurn, toolTurn } from './scripted-model.js';
import { createMemoryTrace } from './trace.js';

let writes = 0;
const lookup = defineTool({
  name: 'lookup',
  description: 'Look something up',
  effect: 'read',
  parameters: z.object({ key: z.string() }),
  execute: ({ key }) => ({ key }),
});
const save = defineTool({
  name: 'save',
  description: 'Save a note (a write)',
  effect: 'write',
  parameters: z.object({ note: z.string() }),
  execute: ({ note }) => {
    writes += 1;
    return `saved ${note} (#${writes})`;
  },
});

const harness = (name = 'test'): Harness => ({
  name,
  tools: [lookup, save],
  system: ({ clock }) => `Today is ${new Date(clock.now()).toISOString().slice(0, 10)}.`,
  validate: true,
  limits: { maxSteps: 10 },
});
const clock = (day = '2026-10-01') => createVirtualClock({ start: Date.parse(`${day}T09:00:00Z`) });

async function startedRun(checkpoints: CheckpointStore, runId = 'run-1') {
  const model = createScriptedModel([
    toolTurn([{ name: 'lookup', input: { key: 'a' } }]),
    textTurn('done'),
  ]);
  return runAgent({
    harness: harness(),
    model,
    modelId: 'm',
    prompt: 'go',
    clock: clock(),
    mode: 'unattended',
    runId,
    checkpoints,
  });
}

const rejection = (promise: Promise<unknown>) => rejectionOf(promise, CheckpointError);

describe('resumeAgent', () => {
  it('refuses an unknown run id and names where it looked', async () => {
    const checkpoints = createMemoryCheckpointStore();
    await startedRun(checkpoints, 'known-run');
    const model = createScriptedModel([]);
    const error = await rejection(
      resumeAgent({ runId: 'nope', checkpoints, harness: harness(), model, clock: clock() }),
    );
    expect(error.code).toBe('checkpoint_missing');
    expect(error.message).toContain('memory:nope.json');
    expect(error.message).toContain('known runs: known-run');
    expect(model.requests).toHaveLength(0);
  });

  it('does not silently restart a run whose checkpoint is truncated', async () => {
    const checkpoints = createMemoryCheckpointStore();
    await startedRun(checkpoints);
    checkpoints.files.set('run-1', checkpoints.files.get('run-1')!.slice(0, 120));
    const model = createScriptedModel([textTurn('should not be called')]);
    const error = await rejection(
      resumeAgent({ runId: 'run-1', checkpoints, harness: harness(), model, clock: clock() }),
    );
    expect(error.code).toBe('checkpoint_corrupt');
    expect(error.message).toContain('memory:run-1.json is corrupt');
    expect(model.requests).toHaveLength(0);
  });

  it('refuses a checkpoint from another format version', async () => {
    const checkpoints = createMemoryCheckpointStore();
    await startedRun(checkpoints);
    const saved = JSON.parse(checkpoints.files.get('run-1')!);
    checkpoints.files.set('run-1', JSON.stringify({ ...saved, version: 7 }));
    const error = await rejection(
      resumeAgent({
        runId: 'run-1',
        checkpoints,
        harness: harness(),
        model: createScriptedModel([]),
        clock: clock(),
      }),
    );
    expect(error.code).toBe('checkpoint_version');
  });

  it('refuses to resume a run with another harness variant', async () => {
    const checkpoints = createMemoryCheckpointStore();
    await startedRun(checkpoints);
    const error = await rejection(
      resumeAgent({
        runId: 'run-1',
        checkpoints,
        harness: harness('baseline'),
        model: createScriptedModel([]),
        clock: clock(),
      }),
    );
    expect(error.code).toBe('checkpoint_conflict');
    expect(error.message).toContain("started with the 'test' harness");
  });

  it('refuses to start a new run over an existing checkpoint', async () => {
    const checkpoints = createMemoryCheckpointStore();
    await startedRun(checkpoints);
    const error = await rejection(startedRun(checkpoints));
    expect(error.code).toBe('checkpoint_conflict');
    // The new run's author did not start the other run: no advice to resume it.
    expect(error.message).not.toMatch(/resume/i);
    expect(error.message).toContain('start the new run under another id');
  });

  it('keeps the system prompt of the start, so a resume the next day sends the same prefix', async () => {
    const checkpoints = createMemoryCheckpointStore();
    const first = createScriptedModel([toolTurn([{ name: 'lookup', input: { key: 'a' } }])]);
    const trace = createMemoryTrace();
    await expect(
      runAgent({
        harness: { ...harness(), limits: { maxSteps: 1 } },
        model: first,
        modelId: 'm',
        prompt: 'go',
        clock: clock(),
        mode: 'unattended',
        runId: 'run-1',
        checkpoints,
        trace,
      }),
    ).resolves.toMatchObject({ status: 'max_steps' });
    // max_steps finished the run; reopen it as running to continue with a bigger limit.
    const saved = JSON.parse(checkpoints.files.get('run-1')!);
    const { result: _result, ...running } = saved;
    checkpoints.files.set('run-1', JSON.stringify({ ...running, state: 'running' }));
    const next = createScriptedModel([textTurn('done')]);
    const result = await resumeAgent({
      runId: 'run-1',
      checkpoints,
      harness: harness(),
      model: next,
      clock: clock('2026-10-02'),
      trace,
    });
    expect(result.status).toBe('done');
    expect(next.requests[0]?.system).toBe(first.requests[0]?.system);
    expect(trace.events.map((event) => event.type)).toContain('run_resume');
  });

  it('ends with error when a checkpoint cannot be saved, and resumes from the one before', async () => {
    const inner = createMemoryCheckpointStore();
    let saves = 0;
    const flaky: CheckpointStore = {
      ...inner,
      save: async (checkpoint) => {
        saves += 1;
        if (saves === 3) throw new Error('ENOSPC: no space left on device');
        return inner.save(checkpoint);
      },
    };
    const model = createScriptedModel([
      toolTurn([{ name: 'lookup', input: { key: 'a' } }]),
      toolTurn([{ name: 'lookup', input: { key: 'b' } }]),
    ]);
    const failed = await runAgent({
      harness: harness(),
      model,
      modelId: 'm',
      prompt: 'go',
      clock: clock(),
      mode: 'unattended',
      runId: 'run-1',
      checkpoints: flaky,
    });
    expect(failed.status).toBe('error');
    expect(failed.detail).toContain('could not save the checkpoint of step 2 to memory:run-1.json');
    expect(failed.detail).toContain('ENOSPC');
    expect((await inner.load('run-1'))?.step).toBe(1);

    const resumed = createScriptedModel([
      toolTurn([{ name: 'lookup', input: { key: 'b' } }]),
      textTurn('done'),
    ]);
    const result = await resumeAgent({
      runId: 'run-1',
      checkpoints: inner,
      harness: harness(),
      model: resumed,
      clock: clock(),
    });
    resumed.assertDone();
    expect(result).toMatchObject({ status: 'done', stats: { steps: 3, toolCalls: 2 } });
  });

  it('keeps a model failure resumable: the next resume retries the step', async () => {
    const checkpoints = createMemoryCheckpointStore();
    const model = createScriptedModel([toolTurn([{ name: 'lookup', input: { key: 'a' } }])]);
    const failed = await runAgent({
      harness: harness(),
      model,
      modelId: 'm',
      prompt: 'go',
      clock: clock(),
      mode: 'unattended',
      runId: 'run-1',
      checkpoints,
    });
    expect(failed.status).toBe('error');
    expect((await checkpoints.load('run-1'))?.state).toBe('running');
    const next = createScriptedModel([textTurn('done')]);
    const result = await resumeAgent({
      runId: 'run-1',
      checkpoints,
      harness: harness(),
      model: next,
      clock: clock(),
    });
    expect(result.status).toBe('done');
    expect(result.stats.steps).toBe(2);
  });

  it('runs two parallel calls of the same write once', async () => {
    writes = 0;
    const checkpoints = createMemoryCheckpointStore();
    const model = createScriptedModel([
      toolTurn([
        { name: 'save', input: { note: 'x' } },
        { name: 'save', input: { note: 'x' } },
      ]),
      textTurn('done'),
    ]);
    const result = await runAgent({
      harness: { ...harness(), permissions: { rules: [], decide: () => allow } },
      model,
      modelId: 'm',
      prompt: 'go',
      clock: clock(),
      mode: 'unattended',
      runId: 'run-1',
      checkpoints,
    });
    expect(writes).toBe(1);
    expect(result.toolCalls.map((record) => record.replayed ?? false)).toEqual([false, true]);
    // One intent logged before the write ran, one outcome after it.
    expect(
      (await checkpoints.loadWrites('run-1')).map((entry) =>
        'kind' in entry ? entry.kind : 'outcome',
      ),
    ).toEqual(['intent', 'outcome']);
  });
});

const allow = { effect: 'allow', rule: undefined, reason: 'test' } as const;
