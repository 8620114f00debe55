import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createVirtualClock } from '../core/clock.js';
import { createScriptedModel } from '../simulator/scripted-model.js';
import { createFileJournalStore } from './journal/journal-store.js';
import { resumeAgent } from './resume-agent.js';
import {
  afterCrashTurns,
  CRASH_RUN_ID,
  type CrashPoint,
  crashHarness,
  FROZEN,
} from './testing/crash-harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;
const child = fileURLToPath(new URL('./testing/crash-child.ts', import.meta.url));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'crash-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Start the child, wait until it says it froze at `point`, SIGKILL it. */
function runAndKill(point: CrashPoint): Promise<NodeJS.Signals | null> {
  return new Promise((resolve, reject) => {
    const process_ = spawn(process.execPath, ['--import', tsx, child, dir, point], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    process_.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes(FROZEN)) process_.kill('SIGKILL');
    });
    process_.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    process_.on('error', reject);
    process_.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(signal);
      else reject(new Error(`child exited with ${code} before freezing: ${stderr}`));
    });
  });
}

const downstreamLines = () =>
  readFileSync(join(dir, 'downstream.jsonl'), 'utf8').trim().split('\n').filter(Boolean);

async function resume() {
  const journals = createFileJournalStore({ dir: join(dir, 'journals') });
  const model = createScriptedModel(afterCrashTurns());
  const result = await resumeAgent({
    runId: CRASH_RUN_ID,
    journals,
    harness: crashHarness(join(dir, 'downstream.jsonl')),
    model,
    clock: createVirtualClock({ start: 0 }),
  });
  model.assertDone();
  return result;
}

const SUBMITTED = JSON.stringify({
  order_id: 'ORD1001',
  idempotencyKey: 'crash-run/submit_refund:ORD1001:submit',
});

// A real process must start here: the ceilings are generous so a busy machine cannot fail them.
describe('a real process killed mid-run (SIGKILL), then resumed', () => {
  it('after the write reached the downstream, before its result: the write is never made again, its outcome is unknown', async () => {
    expect(await runAndKill('in-write')).toBe('SIGKILL');
    expect(downstreamLines()).toEqual([SUBMITTED]);
    // The journal keeps exact values, readable by its owner only.
    expect(statSync(join(dir, 'journals', `${CRASH_RUN_ID}.jsonl`)).mode & 0o777).toBe(0o600);

    const result = await resume();
    expect(result.status).toBe('done');
    expect(downstreamLines()).toEqual([SUBMITTED]);
    // Step 2's call (interrupted) and step 3's repeat are both answered "outcome unknown".
    expect(result.toolCalls.filter((call) => call.tool === 'submit_refund')).toEqual([
      expect.objectContaining({ step: 2, decision: 'outcome_unknown' }),
      expect.objectContaining({ step: 3, decision: 'outcome_unknown', replayed: true }),
    ]);
    expect(result.writes).toEqual([
      expect.objectContaining({ key: 'submit_refund:ORD1001:submit', made: 'unknown' }),
    ]);
  }, 180_000);

  it("after the write's result was journaled: the model is not asked for step 2 again, and the write is answered from the journal", async () => {
    expect(await runAndKill('after-result')).toBe('SIGKILL');
    const result = await resume();
    expect(result.status).toBe('done');
    expect(result.stats.steps).toBe(4);
    expect(downstreamLines()).toEqual([SUBMITTED]);
    expect(result.toolCalls.at(-1)).toMatchObject({
      tool: 'submit_refund',
      step: 3,
      replayed: true,
      isError: false,
    });
    expect(result.writes).toBeUndefined();
  }, 180_000);
});
