import { createVirtualClock } from '../../core/clock.js';
import { createMemoryJournalStore } from '../journal/journal-store.js';
import type { RunStarted } from '../journal/records.js';
import { createRunJournal } from '../journal/run-journal.js';
import { startView } from '../journal/run-view.js';
import { createToolPipeline, type ToolPipelineOptions } from '../pipeline.js';
import type { ToolCall } from '../types.js';
import { testRunState } from './run-state.js';

/** A run_started record for tests. */
export const runStarted = (overrides: Partial<RunStarted> = {}): RunStarted => ({
  type: 'run_started',
  runId: 'run-7',
  variant: 'v',
  model: 'm',
  mode: 'interactive',
  prompt: 'p',
  system: 's',
  seq: 1,
  at: '2026-10-01T09:00:00.000Z',
  ...overrides,
});

/**
 * A tool pipeline on a durable journal in memory, without a loop: `turn` journals a model
 * answer holding the calls as the next step and gives the run state for it; `call` runs one
 * call as a step of its own.
 */
export async function durablePipeline(options: Omit<ToolPipelineOptions, 'journal'>) {
  const view = startView(runStarted());
  const clock = createVirtualClock({ start: 0 });
  const journal = createRunJournal(view, {
    now: () => clock.now(),
    sink: await createMemoryJournalStore().create('run-7', view.started),
  });
  const pipeline = createToolPipeline({ ...options, journal });
  const turn = async (calls: readonly ToolCall[]) => {
    const step = view.step + 1;
    await journal.append({
      type: 'model_answered',
      step,
      content: calls.map((call) => ({ type: 'tool_use', ...call })),
      usage: null,
      ms: 0,
      stopReason: 'tool_use',
    });
    return testRunState({ runId: 'run-7', step, mode: 'interactive', clock, store: view.store });
  };
  return {
    journal,
    pipeline,
    turn,
    async call(call: ToolCall) {
      return pipeline.run(call, await turn([call]), 0);
    },
  };
}
