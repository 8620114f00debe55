import { join } from 'node:path';
import { createVirtualClock } from '../../core/clock.js';
import { createFileCheckpointStore } from '../checkpoint-store.js';
import { runAgent } from '../run-agent.js';
import { createScriptedModel } from '../scripted-model.js';
import { beforeCrashTurns, CRASH_RUN_ID, crashHarness, WRITE_LOGGED } from './crash-harness.js';

/**
 * `node --import tsx crash-child.ts DIR`: runs the crash harness with file checkpoints in DIR
 * and freezes right after the write is executed and logged, before step 2's checkpoint, so the
 * parent can SIGKILL it at exactly that point.
 */
const dir = process.argv[2];
if (!dir) throw new Error('usage: crash-child.ts DIR');
const frozen = new Int32Array(new SharedArrayBuffer(4));

await runAgent({
  harness: crashHarness(join(dir, 'downstream.jsonl')),
  model: createScriptedModel(beforeCrashTurns()),
  modelId: 'scripted',
  prompt: 'Resubmit the refund for ORD1001.',
  clock: createVirtualClock({ start: 0 }),
  mode: 'unattended',
  runId: CRASH_RUN_ID,
  checkpoints: createFileCheckpointStore({ dir: join(dir, 'checkpoints') }),
  trace: {
    write(event) {
      if (event.type === 'tool_call' && event.tool === 'submit_refund') {
        process.stdout.write(`${WRITE_LOGGED}\n`);
        // Block the thread (no event loop, no checkpoint) until the parent kills the process.
        Atomics.wait(frozen, 0, 0, 30_000);
      }
    },
  },
});
