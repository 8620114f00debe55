import { describe, expect, it } from 'vitest';
import { createVirtualClock } from '../core/clock.js';
import { createMemoryCheckpointStore } from './checkpoint-store.js';
import type { Harness } from './harness.js';
import { resumeAgent } from './resume-agent.js';
import { type ApprovalDecisions, runAgent } from './run-agent.js';
import { createScriptedModel, textTurn, toolTurn } from './scripted-model.js';
import { refundTool } from './testing/write-tools.js';
import type { Approver } from './types.js';

/**
 * A paused batch keeps the answers a human gave before it paused. Resume must find each one
 * again, whatever the redaction at rest did to the call's id: a "no" that is not found becomes
 * a yes under `approvals: true` (`--resume --approve`), and the declined write runs.
 */

const clock = () => createVirtualClock({ start: Date.parse('2026-10-01T09:00:00Z') });
// Card-shaped: masked in the checkpoint's values (its calls), not in its keys (its answers).
const cardId = 'call-4111111111111111';
// Another card-shaped id with the same masked form, `call-4111****1111`.
const twinCardId = 'call-4111000000021111';

function refundDesk() {
  const { tool: refund, executed } = refundTool();
  const harness: Harness = {
    name: 'refund-desk',
    tools: [refund],
    system: () => 'You are a test agent.',
    permissions: {
      rules: [],
      decide: () => ({ effect: 'ask', rule: undefined, reason: 'refunds need a human' }),
    },
    limits: { maxSteps: 5 },
  };
  return { harness, executed };
}

/** Answers by order id; the orders it does not name wait for a human. */
const answering =
  (answers: Record<string, boolean>): Approver =>
  async (call) =>
    answers[(call.input as { order_id: string }).order_id] ?? 'defer';

async function pauseThenApproveAll(
  calls: Array<{ order_id: string; id: string }>,
  answers: Record<string, boolean>,
  edit?: (pending: { answers: Record<string, boolean> }) => void,
  approvals: ApprovalDecisions = true,
) {
  const { harness, executed } = refundDesk();
  const checkpoints = createMemoryCheckpointStore();
  const paused = await runAgent({
    harness,
    model: createScriptedModel([
      toolTurn(calls.map(({ order_id, id }) => ({ name: 'refund', input: { order_id }, id }))),
    ]),
    modelId: 'scripted',
    prompt: 'refund them',
    clock: clock(),
    mode: 'interactive',
    approver: answering(answers),
    runId: 'run',
    checkpoints,
  });
  expect(paused.status).toBe('awaiting_approval');
  const executedBefore = [...executed];
  if (edit) {
    const stored = JSON.parse(checkpoints.files.get('run')!);
    edit(stored.pendingApproval);
    checkpoints.files.set('run', JSON.stringify(stored));
  }
  const result = await resumeAgent({
    runId: 'run',
    checkpoints,
    harness,
    model: createScriptedModel([textTurn('ok')]),
    clock: clock(),
    approvals,
  });
  expect(result.status).toBe('done');
  const decisions = result.toolCalls.map((call) => [
    (call.input as { order_id: string }).order_id,
    call.decision,
  ]);
  return { executedBefore, executed, decisions, checkpoints };
}

describe('a paused batch whose tool_use id the redaction at rest masks', () => {
  it('keeps a human\'s "no" to that call: `approvals: true` on resume does not run it', async () => {
    const { executed, decisions, checkpoints } = await pauseThenApproveAll(
      [
        { order_id: 'A', id: cardId },
        { order_id: 'B', id: 'toolu_b' },
      ],
      { A: false },
    );
    expect(checkpoints.files.get('run')).not.toContain(cardId);
    expect(executed).toEqual(['B']);
    expect(decisions).toEqual([
      ['A', 'ask_denied'],
      ['B', 'ask_approved'],
    ]);
  });

  it('honours an older checkpoint that keeps the answer under the unmasked id', async () => {
    const { executed, decisions } = await pauseThenApproveAll(
      [
        { order_id: 'A', id: cardId },
        { order_id: 'B', id: 'toolu_b' },
      ],
      { A: false },
      (pending) => {
        // As builds before this fix wrote it: calls masked (values), answers not (keys).
        pending.answers = { [cardId]: false };
      },
    );
    expect(executed).toEqual(['B']);
    expect(decisions).toEqual([
      ['A', 'ask_denied'],
      ['B', 'ask_approved'],
    ]);
  });

  it('keeps the "no" when two ids mask to one form and the other call was approved', async () => {
    const { executedBefore, executed, decisions } = await pauseThenApproveAll(
      [
        { order_id: 'A', id: cardId },
        { order_id: 'B', id: twinCardId },
        { order_id: 'C', id: 'toolu_c' },
      ],
      { A: false, B: true },
    );
    expect(executedBefore).toEqual(['B']);
    // B is answered from the write log (it ran once); A stays declined; C is approved.
    expect(executed).toEqual(['B', 'C']);
    expect(decisions).toEqual([
      ['A', 'ask_denied'],
      ['B', 'ask_approved'],
      ['C', 'ask_approved'],
    ]);
  });

  it('finds answers passed by tool_use id under the id the model gave, before the masking', async () => {
    const { executed, decisions } = await pauseThenApproveAll(
      [
        { order_id: 'A', id: cardId },
        { order_id: 'B', id: 'toolu_b' },
      ],
      {},
      undefined,
      { [cardId]: true, toolu_b: false },
    );
    expect(executed).toEqual(['A']);
    expect(decisions).toEqual([
      ['A', 'ask_approved'],
      ['B', 'ask_denied'],
    ]);
  });
});

describe('a paused batch whose two calls share one tool_use id', () => {
  it('keeps the "no" to one of them when the other was approved', async () => {
    const { executedBefore, executed, decisions } = await pauseThenApproveAll(
      [
        { order_id: 'A', id: 'toolu_same' },
        { order_id: 'B', id: 'toolu_same' },
        { order_id: 'C', id: 'toolu_c' },
      ],
      { A: false, B: true },
    );
    expect(executedBefore).toEqual(['B']);
    expect(executed).toEqual(['B', 'C']);
    expect(decisions).toEqual([
      ['A', 'ask_denied'],
      ['B', 'ask_approved'],
      ['C', 'ask_approved'],
    ]);
  });
});
