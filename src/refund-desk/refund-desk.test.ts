import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createVirtualClock } from '../core/clock.js';
import type { RunResult } from '../runtime/run-agent.js';
import { runAgent } from '../runtime/run-agent.js';
import type { Approver, RunMode } from '../runtime/types.js';
import { createScriptedModel, textTurn, toolTurn } from '../simulator/scripted-model.js';
import { FULL_CARD_NUMBER } from './data.js';
import { refundSubmissionsOf } from './tools.js';
import { createRefundDeskHarness, type RefundDeskVariant, ROLE_PROMPT } from './variants.js';

const projectDir = fileURLToPath(new URL('../..', import.meta.url));
type Turns = Parameters<typeof createScriptedModel>[0];

async function run(
  variant: RefundDeskVariant,
  turns: Turns,
  options: { mode?: RunMode; approver?: Approver; prompt?: string } = {},
) {
  const model = createScriptedModel(turns);
  const clock = createVirtualClock({ start: Date.parse('2026-10-01T09:00:00Z') });
  const result = await runAgent({
    harness: createRefundDeskHarness(variant, { projectDir, instructionFiles: ['AGENTS.md'] }),
    model,
    modelId: 'scripted',
    prompt: options.prompt ?? 'question',
    clock,
    mode: options.mode ?? 'unattended',
    ...(options.approver && { approver: options.approver }),
  });
  model.assertDone();
  return { result, model, clock };
}

/** The tool_result texts the model was sent, in order. */
function toolResults(result: RunResult): string[] {
  return result.messages.flatMap((message) =>
    Array.isArray(message.content)
      ? message.content.flatMap((block) =>
          block.type === 'tool_result' ? [String(block.content)] : [],
        )
      : [],
  );
}

const lookups = (order: string): Turns => [
  toolTurn([{ name: 'get_order', input: { order_id: order } }]),
  toolTurn([{ name: 'get_payment', input: { order_id: order } }]),
  textTurn('answer'),
];

describe('refund desk, baseline vs upgraded (scripted model)', () => {
  it('gives only the upgraded model the rules, the date and the mode', async () => {
    const baseline = await run('baseline', [textTurn('hi')]);
    const upgraded = await run('upgraded', [textTurn('hi')]);
    expect(baseline.model.requests[0]?.system).toBe(ROLE_PROMPT);
    const blocks = upgraded.model.requests[0]?.system as Array<{
      text: string;
      cache_control?: unknown;
    }>;
    expect(blocks[0]?.cache_control).toEqual({ type: 'ephemeral' });
    const system = blocks[0]?.text ?? '';
    expect(system).toContain('"Overdue"');
    expect(system).toContain('Today is 2026-10-01.');
    expect(system).toContain('Mode: unattended.');
    expect(system.indexOf('# Role')).toBeLessThan(system.indexOf('# Project instructions'));
  });

  it('T1: baseline sends the model the full card number, upgraded sends it masked', async () => {
    const baseline = await run('baseline', lookups('ORD1001'));
    const upgraded = await run('upgraded', lookups('ORD1001'));
    expect(toolResults(baseline.result)[1]).toContain(FULL_CARD_NUMBER);
    const masked = toolResults(upgraded.result)[1];
    expect(masked).not.toContain(FULL_CARD_NUMBER);
    expect(masked).toContain('6222****3445');
  });

  it('T2: both variants relay that the order does not exist', async () => {
    for (const variant of ['baseline', 'upgraded'] as const) {
      const { result } = await run(variant, [
        toolTurn([{ name: 'get_order', input: { order_id: 'ORD3003' } }]),
        textTurn('Please check the order number.'),
      ]);
      expect(result.toolCalls[0]?.decision).toBe('failed');
      expect(toolResults(result)[0]).toContain(
        'order ORD3003 does not exist; ask the user to check',
      );
    }
  });

  it('T3: baseline waits the whole 10 s on ORD4004, upgraded stops at the 3 s timeout', async () => {
    const turns = (): Turns => [
      toolTurn([{ name: 'get_payment', input: { order_id: 'ORD4004' } }]),
      textTurn('later'),
    ];
    const baseline = await run('baseline', turns());
    const upgraded = await run('upgraded', turns());
    expect(baseline.result.toolCalls[0]).toMatchObject({ decision: 'failed', ms: 10_000 });
    expect(baseline.result.stats.toolMs).toBe(10_000);
    expect(upgraded.result.toolCalls[0]).toMatchObject({ decision: 'timeout', ms: 3000 });
    expect(upgraded.result.stats.toolMs).toBe(3000);
    expect(upgraded.clock.pending()).toBe(0);
  });

  it('T3: upgraded blocks a repeated call to the hung system', async () => {
    const call = { name: 'get_payment', input: { order_id: 'ORD4004' } };
    const { result } = await run('upgraded', [
      toolTurn([call]),
      toolTurn([call]),
      textTurn('later'),
    ]);
    expect(result.toolCalls.map((record) => record.decision)).toEqual(['timeout', 'hook_deny']);
    expect(result.stats.toolMs).toBe(3000);
  });

  it('T4: upgraded truncates the 300 retry lines with a notice, keeping the note', async () => {
    const baseline = await run('baseline', lookups('ORD5005'));
    const upgraded = await run('upgraded', lookups('ORD5005'));
    const full = toolResults(baseline.result)[1]!;
    const cut = toolResults(upgraded.result)[1]!;
    expect(full.length).toBeGreaterThan(8000);
    expect(cut).toContain('bank channel busy');
    expect(cut).toMatch(/\[truncated: \d+ of \d+ characters kept\]$/);
    expect(cut.length).toBeLessThan(2100);
  });

  const resubmit = (order = 'ORD1001'): Turns => [
    toolTurn([
      { name: 'resubmit_refund', input: { order_id: order, reason: 'new payee account' } },
    ]),
    textTurn('done'),
  ];

  it('T5: baseline executes the unconfirmed resubmission', async () => {
    const { result } = await run('baseline', resubmit());
    expect(result.toolCalls[0]?.decision).toBe('allow');
    expect(result.stats.unconfirmedWrites).toBe(1);
    expect(refundSubmissionsOf(result.store)).toHaveLength(1);
  });

  it('T5: upgraded refuses the write when unattended', async () => {
    const { result } = await run('upgraded', resubmit());
    expect(result.toolCalls[0]?.decision).toBe('ask_denied');
    expect(result.stats.unconfirmedWrites).toBe(0);
    expect(refundSubmissionsOf(result.store)).toEqual([]);
  });

  it('T5: upgraded executes the write once a human approves it, and counts it as confirmed', async () => {
    const asked: string[] = [];
    const { result } = await run('upgraded', resubmit(), {
      mode: 'interactive',
      approver: async (call) => {
        asked.push(call.name);
        return true;
      },
    });
    expect(asked).toEqual(['resubmit_refund']);
    expect(result.toolCalls[0]?.decision).toBe('ask_approved');
    expect(result.stats.unconfirmedWrites).toBe(0);
    expect(refundSubmissionsOf(result.store)).toHaveLength(1);
  });

  it('denies resubmitting a refund over 1000 yuan outright (argument rule), even interactively', async () => {
    const { result } = await run('upgraded', resubmit('ORD5005'), {
      mode: 'interactive',
      approver: async () => true,
    });
    expect(result.toolCalls[0]?.decision).toBe('deny');
    expect(toolResults(result)[0]).toContain('over 1000 yuan');
  });

  it('T6: a missing payment record comes back as a failed lookup in both variants', async () => {
    const { result } = await run('upgraded', lookups('ORD2002'));
    expect(result.toolCalls[1]?.decision).toBe('failed');
    expect(toolResults(result)[1]).toContain('no payment record for ORD2002');
  });

  it('rejects a malformed order id before the tool runs, with the fix in the message', async () => {
    const turns = (): Turns => [
      toolTurn([{ name: 'get_order', input: { order_id: 'A1' } }]),
      textTurn('?'),
    ];
    const upgraded = await run('upgraded', turns());
    expect(upgraded.result.toolCalls[0]?.decision).toBe('invalid');
    expect(toolResults(upgraded.result)[0]).toContain(
      "order_id 'A1' must look like ORD1001; ask the user to check it",
    );
    const baseline = await run('baseline', turns());
    expect(baseline.result.toolCalls[0]?.decision).toBe('failed');
  });

  it('starts every run with an empty write store', async () => {
    const first = await run('baseline', resubmit());
    const second = await run('baseline', [textTurn('nothing')]);
    expect(refundSubmissionsOf(first.result.store)).toHaveLength(1);
    expect(refundSubmissionsOf(second.result.store)).toEqual([]);
  });
});
