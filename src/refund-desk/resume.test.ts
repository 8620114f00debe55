import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createVirtualClock } from '../core/clock.js';
import type { Harness } from '../runtime/harness.js';
import {
  createFileJournalStore,
  createMemoryJournalStore,
  type JournalStore,
} from '../runtime/journal/journal-store.js';
import { resumeAgent } from '../runtime/resume-agent.js';
import { runAgent } from '../runtime/run-agent.js';
import type { Approver, ToolDefinition } from '../runtime/types.js';
import { createScriptedModel, textTurn, toolTurn } from '../simulator/scripted-model.js';
import { refundSubmissionsOf, resubmitRefund } from './tools.js';
import { createUpgradedHarness } from './variants.js';

const projectDir = fileURLToPath(new URL('../..', import.meta.url));
const PROMPT = 'The customer of ORD1001 confirmed a new payee account. Please resubmit the refund.';
const RESUBMIT = { order_id: 'ORD1001', reason: 'customer confirmed a new payee account' };
const DECLINED = 'The user declined resubmit_refund; it was not executed. Use another approach.';

/** The upgraded refund desk, counting how often the refund system really received a resubmission. */
function countingHarness(): { harness: Harness; executions: () => number } {
  let executions = 0;
  const counted = {
    ...resubmitRefund,
    execute: (args: never, context: never) => {
      executions += 1;
      return resubmitRefund.execute(args, context);
    },
  } as ToolDefinition;
  const harness = createUpgradedHarness({ projectDir, instructionFiles: ['AGENTS.md'] });
  return {
    harness: {
      ...harness,
      tools: harness.tools.map((tool) => (tool.name === 'resubmit_refund' ? counted : tool)),
    },
    executions: () => executions,
  };
}

const lookups = () => [
  toolTurn([{ name: 'get_order', input: { order_id: 'ORD1001' } }]),
  toolTurn([{ name: 'get_payment', input: { order_id: 'ORD1001' } }]),
];
const approveAll: Approver = async () => true;
const clock = () => createVirtualClock({ start: Date.parse('2026-10-01T09:00:00Z') });

function lastToolResults(request: { messages: Array<{ content: unknown }> }): string[] {
  const content = request.messages.at(-1)?.content;
  return Array.isArray(content)
    ? content.map((block: { content?: unknown }) => String(block.content))
    : [];
}

describe('refund desk: killed after a write, then resumed', () => {
  it('goes on from the journal: the refund is submitted once, the store and the approval come back', async () => {
    const { harness, executions } = countingHarness();
    const runId = 'refund-crash';
    const full = createMemoryJournalStore();
    await runAgent({
      harness,
      model: createScriptedModel([
        ...lookups(),
        toolTurn([{ name: 'resubmit_refund', input: RESUBMIT, id: 'toolu_before_crash' }]),
        textTurn('unused'),
      ]),
      modelId: 'scripted',
      prompt: PROMPT,
      clock: clock(),
      mode: 'interactive',
      approver: approveAll,
      runId,
      journals: full,
    });
    // The process died right after the write's result was journaled.
    const lines = full.texts.get(runId)!.split('\n');
    const cut = lines.findLastIndex((line) => line.includes('"type":"result"')) + 1;
    const journals = createMemoryJournalStore();
    journals.texts.set(runId, `${lines.slice(0, cut).join('\n')}\n`);
    expect(executions()).toBe(1);

    const asked: string[] = [];
    const resumed = createScriptedModel([
      textTurn('The refund for ORD1001 was resubmitted for review.'),
    ]);
    const result = await resumeAgent({
      runId,
      journals,
      harness: countingHarness().harness,
      model: resumed,
      clock: clock(),
      approver: async (call) => {
        asked.push(call.name);
        return true;
      },
    });
    resumed.assertDone();
    expect(result.status).toBe('done');
    expect(result.stats.steps).toBe(4);
    // Step 3's answer was recorded: the model is asked for step 4 only, with the write's result.
    expect(resumed.requests[0]?.messages).toHaveLength(7);
    expect(lastToolResults(resumed.requests[0]!)[0]).toContain('refund resubmitted for review');
    expect(executions()).toBe(1);
    // The tools' store comes back as the journal kept it: it agrees with what was done.
    expect(refundSubmissionsOf(result.store)).toEqual([expect.objectContaining(RESUBMIT)]);
    expect(asked).toEqual([]);
    expect(result.toolCalls.at(-1)).toMatchObject({
      tool: 'resubmit_refund',
      decision: 'ask_approved',
    });
    expect(result.stats.unconfirmedWrites).toBe(0);
  });

  it('returns a finished run without calling the model again', async () => {
    const journals = createMemoryJournalStore();
    const { harness, executions } = countingHarness();
    const model = createScriptedModel([
      ...lookups(),
      toolTurn([{ name: 'resubmit_refund', input: RESUBMIT }]),
      textTurn('Resubmitted.'),
    ]);
    const options = { harness, clock: clock(), journals, runId: 'refund-done' };
    const done = await runAgent({
      ...options,
      model,
      modelId: 'scripted',
      prompt: PROMPT,
      mode: 'interactive',
      approver: approveAll,
    });
    expect(done.status).toBe('done');

    const idle = createScriptedModel([]);
    const again = await resumeAgent({ ...options, model: idle });
    expect(idle.requests).toHaveLength(0);
    expect(again).toMatchObject({ status: 'done', answer: 'Resubmitted.', stats: done.stats });
    expect(refundSubmissionsOf(again.store)).toHaveLength(1);
    expect(executions()).toBe(1);
  });
});

describe('refund desk: the approval gate across a restart', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'approval-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function pausedRun(journals: JournalStore, harness: Harness) {
    const model = createScriptedModel([
      ...lookups(),
      toolTurn([{ name: 'resubmit_refund', input: RESUBMIT }]),
    ]);
    const result = await runAgent({
      harness,
      model,
      modelId: 'scripted',
      prompt: PROMPT,
      clock: clock(),
      mode: 'interactive',
      approver: async () => 'defer',
      runId: 'refund-approval',
      journals,
    });
    model.assertDone();
    return result;
  }

  it('pauses on a deferred approval, survives a restart, and executes once approved', async () => {
    const { harness, executions } = countingHarness();
    const paused = await pausedRun(createFileJournalStore({ dir }), harness);
    expect(paused.status).toBe('awaiting_approval');
    expect(paused.pendingApprovals).toEqual([
      expect.objectContaining({ tool: 'resubmit_refund', input: RESUBMIT }),
    ]);
    expect(executions()).toBe(0);

    // A new process: a fresh store over the same folder, the human's answer on the command line.
    const model = createScriptedModel([textTurn('Resubmitted for review.')]);
    const result = await resumeAgent({
      runId: 'refund-approval',
      journals: createFileJournalStore({ dir }),
      harness,
      model,
      clock: clock(),
      approvals: true,
    });
    model.assertDone();
    expect(result.status).toBe('done');
    expect(executions()).toBe(1);
    expect(result.toolCalls.at(-1)).toMatchObject({ decision: 'ask_approved', isError: false });
    expect(lastToolResults(model.requests[0]!)[0]).toContain('refund resubmitted for review');
  });

  it('sends a rejection to the model as "declined, use another approach" and goes on', async () => {
    const { harness, executions } = countingHarness();
    await pausedRun(createFileJournalStore({ dir }), harness);
    const model = createScriptedModel([
      textTurn('I did not resubmit it; a colleague will contact you about the payee account.'),
    ]);
    const result = await resumeAgent({
      runId: 'refund-approval',
      journals: createFileJournalStore({ dir }),
      harness,
      model,
      clock: clock(),
      approvals: false,
    });
    expect(result.status).toBe('done');
    expect(executions()).toBe(0);
    expect(lastToolResults(model.requests[0]!)).toEqual([DECLINED]);
    expect(result.toolCalls.at(-1)).toMatchObject({ decision: 'ask_denied', isError: true });
  });

  it('stays paused, without calling the model, when resumed with no answer', async () => {
    const { harness } = countingHarness();
    await pausedRun(createFileJournalStore({ dir }), harness);
    const model = createScriptedModel([]);
    const result = await resumeAgent({
      runId: 'refund-approval',
      journals: createFileJournalStore({ dir }),
      harness,
      model,
      clock: clock(),
    });
    expect(result.status).toBe('awaiting_approval');
    expect(model.requests).toHaveLength(0);
  });
});
