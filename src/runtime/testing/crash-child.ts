import { join } from 'node:path';
import { createVirtualClock } from '../../core/clock.js';
import { createScriptedModel } from '../../simulator/scripted-model.js';
import { createFileJournalStore } from '../journal/journal-store.js';
import { runAgent } from '../run-agent.js';
import {
  beforeCrashTurns,
  CRASH_RUN_ID,
  type CrashPoint,
  crashHarness,
  FROZEN,
} from './crash-harness.js';

/**
 * `node --import tsx crash-child.ts DIR POINT`: runs the crash harness with its journal in DIR
 * and freezes at POINT so the parent can SIGKILL it exactly there: `in-write` right after the
 * write reached the downstream (its intent journaled, its result not), `after-result` once
 * the write's result is journaled.
 */
const [dir, point] = process.argv.slice(2) as [string | undefined, CrashPoint | undefined];
if (!dir || (point !== 'in-write' && point !== 'after-result')) {
  throw new Error('usage: crash-child.ts DIR in-write|after-result');
}
const frozen = new Int32Array(new SharedArrayBuffer(4));
const freeze = () => {
  process.stdout.write(`${FROZEN}\n`);
  // Block the thread (no event loop, nothing more journaled) until the parent kills the process.
  Atomics.wait(frozen, 0, 0, 30_000);
};

await runAgent({
  harness: crashHarness(join(dir, 'downstream.jsonl'), point === 'in-write' ? freeze : undefined),
  model: createScriptedModel(beforeCrashTurns()),
  modelId: 'scripted',
  prompt: 'Resubmit the refund for ORD1001.',
  clock: createVirtualClock({ start: 0 }),
  mode: 'unattended',
  runId: CRASH_RUN_ID,
  journals: createFileJournalStore({ dir: join(dir, 'journals') }),
  trace: {
    write(event) {
      if (
        point === 'after-result' &&
        event.type === 'tool_call' &&
        event.tool === 'submit_refund'
      ) {
        freeze();
      }
    },
  },
});
