import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createVirtualClock } from '../core/clock.js';
import { createFileCheckpointStore } from './checkpoint-store.js';
import { resumeAgent } from './resume-agent.js';
import { createScriptedModel } from './scripted-model.js';
import {
  afterCrashTurns,
  CRASH_RUN_ID,
  crashHarness,
  WRITE_LOGGED,
} from './testing/crash-harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;
const child = fileURLToPath(new URL('./testing/crash-child.ts', import.meta.url));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'crash-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Start the child, wait until it says the write is logged, SIGKILL it. */
function runAndKill(): Promise<NodeJS.Signals | null> {
  return new Promise((resolve, reject) => {
    const process_ = spawn(process.execPath, ['--import', tsx, child, dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    process_.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes(WRITE_LOGGED)) process_.kill('SIGKILL');
    });
    process_.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    process_.on('error', reject);
    process_.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(signal);
      else reject(new Error(`child exited with ${code} before the write: ${stderr}`));
    });
  });
}

const downstreamLines = () =>
  readFileSync(join(dir, 'downstream.jsonl'), 'utf8').trim().split('\n').filter(Boolean);

describe('a real process killed between a write and its checkpoint', () => {
  it('resumes from the last checkpoint and the write reaches the downstream once', async () => {
    expect(await runAndKill()).toBe('SIGKILL');
    const checkpoints = createFileCheckpointStore({ dir: join(dir, 'checkpoints') });
    expect((await checkpoints.load(CRASH_RUN_ID))?.step).toBe(1);
    // The intent, fsynced before the write ran, and its outcome.
    expect(await checkpoints.loadWrites(CRASH_RUN_ID)).toEqual([
      expect.objectContaining({ kind: 'intent', key: 'submit_refund:ORD1001:submit' }),
      expect.objectContaining({
        key: 'submit_refund:ORD1001:submit',
        output: 'refund for ORD1001 submitted',
      }),
    ]);
    expect(downstreamLines()).toHaveLength(1);

    const model = createScriptedModel(afterCrashTurns());
    const result = await resumeAgent({
      runId: CRASH_RUN_ID,
      checkpoints,
      harness: crashHarness(join(dir, 'downstream.jsonl')),
      model,
      clock: createVirtualClock({ start: 0 }),
    });
    model.assertDone();
    expect(result.status).toBe('done');
    expect(result.stats.steps).toBe(3);
    expect(downstreamLines()).toEqual([
      JSON.stringify({
        order_id: 'ORD1001',
        idempotencyKey: 'crash-run/submit_refund:ORD1001:submit',
      }),
    ]);
    expect(result.toolCalls.at(-1)).toMatchObject({ tool: 'submit_refund', replayed: true });
    // A real process must start here; the ceiling is generous so a busy machine cannot fail it.
  }, 180_000);
});
