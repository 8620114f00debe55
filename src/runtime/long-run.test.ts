import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createVirtualClock } from '../core/clock.js';
import { createScriptedModel, type ScriptedTurn, toolTurn } from '../simulator/scripted-model.js';
import { defineTool } from './define-tool.js';
import type { Harness, StopLimits } from './harness.js';
import { createMemoryJournalStore, type JournalStore } from './journal/journal-store.js';
import { resumeAgent } from './resume-agent.js';
import { runAgent } from './run-agent.js';

const lookup = defineTool({
  name: 'lookup',
  description: 'Look a key up',
  effect: 'read',
  parameters: z.object({ key: z.string() }),
  execute: ({ key }) => `value of ${key}`,
});

const harness = (limits: StopLimits): Harness => ({
  name: 'long',
  tools: [lookup],
  system: () => 'Work through the keys.',
  validate: true,
  limits,
});

/** The seed's arithmetic: each step costs about 10k tokens (9000 in, 1000 out). */
const steps = (from: number, count: number): ScriptedTurn[] =>
  Array.from({ length: count }, (_, index) =>
    toolTurn([{ name: 'lookup', input: { key: `k${from + index}` } }], [9000, 1000]),
  );

async function longRun(limits: StopLimits, turns: ScriptedTurn[]) {
  const model = createScriptedModel(turns);
  const journals = createMemoryJournalStore();
  const result = await runAgent({
    harness: harness(limits),
    model,
    modelId: 'm',
    prompt: 'migrate everything',
    clock: createVirtualClock({ start: 0 }),
    mode: 'unattended',
    runId: 'long',
    journals,
  });
  model.assertDone();
  return { result, journal: (await journals.open('long')).view };
}

describe('long scripted runs end with the right status', () => {
  it('stops at the step limit (30) and journals the run as finished', async () => {
    const { result, journal } = await longRun({ maxSteps: 30 }, steps(0, 30));
    expect(result.status).toBe('max_steps');
    expect(result.stats.steps).toBe(30);
    expect(journal.step).toBe(30);
    expect(journal.finished).toMatchObject({ type: 'run_finished', status: 'max_steps' });
  });

  it('stops when the token budget (200k) is spent, after the 21st step', async () => {
    const { result } = await longRun({ maxSteps: 50, tokenBudget: 200_000 }, steps(0, 21));
    expect(result.status).toBe('token_budget');
    expect(result.stats.steps).toBe(21);
    expect(result.detail).toBe('spent 210000 tokens (budget 200000)');
  });

  it('stops when it runs in circles: the same call three times after ten good steps', async () => {
    const same = () => toolTurn([{ name: 'lookup', input: { key: 'k9' } }], [9000, 1000]);
    const { result } = await longRun({ maxSteps: 50, noProgressWindow: 3 }, [
      ...steps(0, 9),
      same(),
      same(),
      same(),
    ]);
    expect(result.status).toBe('no_progress');
    expect(result.stats.steps).toBe(12);
  });

  it('counts steps and tokens across a crash and resume, and still stops at 30', async () => {
    const journals = createMemoryJournalStore();
    // Interrupted between step 12's model answer and its tool's result, as a crash would leave it.
    const crashing: JournalStore = {
      ...journals,
      async create(runId, first) {
        const sink = await journals.create(runId, first);
        return {
          source: sink.source,
          async append(record) {
            if (record.type === 'result' && record.step === 12) throw new Error('killed');
            return sink.append(record);
          },
        };
      },
    };
    const first = createScriptedModel(steps(0, 12));
    const stopped = await runAgent({
      harness: harness({ maxSteps: 30, tokenBudget: 1_000_000 }),
      model: first,
      modelId: 'm',
      prompt: 'migrate everything',
      clock: createVirtualClock({ start: 0 }),
      mode: 'unattended',
      runId: 'long',
      journals: crashing,
    });
    first.assertDone();
    expect(stopped.status).toBe('error');
    expect(stopped.detail).toContain('killed');
    const kept = (await journals.open('long')).view;
    expect(kept.step).toBe(12);
    expect(kept.open?.results).toEqual([]);

    // Step 12's answer was journaled: the model is not asked for it again, its call runs.
    const rest = createScriptedModel(steps(12, 18));
    const result = await resumeAgent({
      runId: 'long',
      journals,
      harness: harness({ maxSteps: 30, tokenBudget: 1_000_000 }),
      model: rest,
      clock: createVirtualClock({ start: 0 }),
    });
    rest.assertDone();
    expect(result.status).toBe('max_steps');
    expect(result.stats).toMatchObject({ steps: 30, toolCalls: 30, inputTokens: 270_000 });
    // No step is lost or counted twice.
    expect(result.toolCalls.map((record) => record.step)).toEqual(
      Array.from({ length: 30 }, (_, index) => index + 1),
    );
  });
});
