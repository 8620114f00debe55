import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureCli } from '../../cli/testing/cli.js';
import { createVirtualClock } from '../../core/clock.js';
import { acquireRunLock } from '../../core/run-lock.js';
import { createFileJournalStore } from '../../runtime/journal/journal-store.js';
import { runAgent } from '../../runtime/run-agent.js';
import { createScriptedModel, textTurn } from '../../simulator/scripted-model.js';
import { createRefundDeskHarness } from '../variants.js';
import { runAgentCli } from './agent.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const RUN_ID = 'locked-run';
let cwd: string;

beforeAll(async () => {
  cwd = mkdtempSync(join(tmpdir(), 'agent-lock-'));
  writeFileSync(join(cwd, 'AGENTS.md'), readFileSync(join(root, 'AGENTS.md')));
  // A finished run, made in process: resuming it needs no model and no network.
  const result = await runAgent({
    harness: createRefundDeskHarness('upgraded', { projectDir: cwd }),
    model: createScriptedModel([textTurn('Overdue: the refund is late.')]),
    modelId: 'scripted',
    prompt: 'Why is my refund late?',
    clock: createVirtualClock({ start: 0 }),
    mode: 'unattended',
    runId: RUN_ID,
    journals: createFileJournalStore({ dir: join(cwd, 'runs/journals') }),
  });
  expect(result.status).toBe('done');
});
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe('npm run agent -- --resume on a run another process holds', () => {
  it('exits 2 with one line naming the run and the holder pid', async () => {
    // The first terminal is another live process (this one's parent): the lock names it. The
    // CLI runs in process, as the second terminal.
    const holder = process.ppid;
    const lock = await acquireRunLock({
      file: join(cwd, 'runs/journals', `${RUN_ID}.lock`),
      runId: RUN_ID,
      pid: holder,
    });
    try {
      const outcome = await captureCli(() =>
        runAgentCli(['--resume', RUN_ID], {
          cwd,
          env: { ...process.env, ANTHROPIC_API_KEY: '', CI: '' },
        }),
      );
      expect(outcome.code).toBe(2);
      expect(outcome.stdout).not.toContain('Overdue');
      const lines = outcome.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(`^agent: run_locked: run '${RUN_ID}' is in use by process ${holder} since `),
      );
    } finally {
      await lock.release();
    }
  });
});
