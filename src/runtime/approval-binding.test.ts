import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { textTurn, toolTurn } from '../simulator/scripted-model.js';
import { createMemoryJournalStore } from './journal/journal-store.js';
import { readJournalText } from './journal/journal-text.js';
import { resumeAgent } from './resume-agent.js';
import { runAgent } from './run-agent.js';
import { deskClock } from './testing/journal-desk.js';
import { byStep, onFile, PAY, PAY_TURNS, payoutDesk } from './testing/payout-desk.js';
import type { TraceEvent } from './trace.js';
import type { Approver, PreToolUseHook } from './types.js';

// Issue 34, "Why": the five defects of the journal and approval path, each asserting the safe
// behaviour (each of these failed on the code before the fix).

const RUN = 'bound';

async function start(options: {
  turns: readonly Anthropic.Message[];
  paid: Array<Record<string, unknown>>;
  hooks?: PreToolUseHook[];
  approver?: Approver;
  signal?: AbortSignal;
  trace?: TraceEvent[];
}) {
  const journals = createMemoryJournalStore();
  const result = await runAgent({
    harness: payoutDesk(options.paid, options.hooks, true),
    model: byStep(options.turns),
    modelId: 'm',
    prompt: 'Pay.',
    clock: deskClock(),
    mode: 'interactive',
    ...(options.approver && { approver: options.approver }),
    ...(options.signal && { signal: options.signal }),
    ...(options.trace && { trace: { write: (event) => options.trace?.push(event) } }),
    runId: RUN,
    journals,
  });
  return { result, journals };
}

const resume = (
  journals: ReturnType<typeof createMemoryJournalStore>,
  paid: Array<Record<string, unknown>>,
  extra: Partial<Parameters<typeof resumeAgent>[0]> & { hooks?: PreToolUseHook[] } = {},
) => {
  const { hooks, ...rest } = extra;
  return resumeAgent({
    runId: RUN,
    journals,
    harness: payoutDesk(paid, hooks),
    model: byStep(PAY_TURNS),
    clock: deskClock(),
    ...rest,
  });
};

describe('the journal and approval path (issue 34)', () => {
  it('keeps the journal resumable when the store cannot be saved, and runs no later call (defect 1)', async () => {
    const paid: Array<Record<string, unknown>> = [];
    const turns = [
      toolTurn([{ name: 'remember', input: { name: 'big', value: 'x' }, id: 'toolu_big' }, PAY]),
      textTurn('Paid.'),
    ];
    const approver: Approver = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return true;
    };
    const { result, journals } = await start({ turns, paid, approver });
    expect(result.status).toBe('error');
    expect(result.detail).toMatch(/keep JSON values in run\.store/);
    expect(paid).toEqual([]);
    const text = journals.texts.get(RUN)!;
    expect(() => readJournalText(text, 'memory', RUN)).not.toThrow();
  });

  it('lets only one of two concurrent resumes on the memory store continue the run (defect 2)', async () => {
    const paid: Array<Record<string, unknown>> = [];
    const { journals } = await start({ turns: PAY_TURNS, paid, approver: async () => 'defer' });
    const settled = await Promise.allSettled([
      resume(journals, paid, { approvals: true }),
      resume(journals, paid, { approvals: true }),
    ]);
    expect(paid).toHaveLength(1);
    expect(settled.map((each) => each.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(() => readJournalText(journals.texts.get(RUN)!, 'memory', RUN)).not.toThrow();
  });

  it('refuses a call that reads a credential the journal kept masked, instead of sending the mask (defect 3)', async () => {
    const paid: Array<Record<string, unknown>> = [];
    const token = ['sk', 'ant', 'api03', 'q'.repeat(32)].join('-');
    const turns = [
      toolTurn([{ name: 'remember', input: { name: 'token', value: token }, id: 'toolu_t' }]),
      toolTurn([PAY]),
      textTurn('Paid.'),
    ];
    const { journals } = await start({ turns, paid, approver: async () => 'defer' });
    expect(journals.texts.get(RUN)).not.toContain(token);
    const result = await resumeAgent({
      runId: RUN,
      journals,
      harness: payoutDesk(paid),
      model: byStep(turns),
      clock: deskClock(),
      approvals: true,
    });
    expect(paid).toEqual([]);
    const payout = result.toolCalls.find((call) => call.tool === 'payout');
    expect(payout).toMatchObject({ isError: true });
    const shown = JSON.stringify(result.messages);
    expect(shown).toMatch(/run\.store 'token' holds a credential the run's journal kept masked/);
  });

  it('shows one value everywhere and runs only that value: a hook that changes it sends the call back to waiting (defect 4)', async () => {
    const paid: Array<Record<string, unknown>> = [];
    const seen: unknown[] = [];
    const trace: TraceEvent[] = [];
    const { result, journals } = await start({
      turns: PAY_TURNS,
      paid,
      hooks: [onFile('ACC-ON-FILE-1')],
      approver: async (call) => {
        seen.push(call.input);
        return 'defer';
      },
      trace,
    });
    const shown = { account: 'ACC-ON-FILE-1', amount: 5 };
    expect(seen).toEqual([shown]);
    const pending = result.pendingApprovals?.[0];
    expect(pending).toMatchObject({ tool: 'payout', input: shown });
    expect(pending?.hash).toMatch(/^[0-9a-f]{12}$/);
    expect(trace.find((event) => event.type === 'approval_pending')).toMatchObject({
      input: shown,
      hash: pending?.hash,
    });
    const approval = journals.texts
      .get(RUN)!
      .split('\n')
      .find((line) => line.includes('"type":"approval"'));
    expect(approval).toContain(pending!.hash);
    // The file changed between the pause and the resume: the approved value is not what would run.
    const changed = await resume(journals, paid, {
      approvals: { [pending!.hash]: true },
      hooks: [onFile('ACC-ON-FILE-2')],
    });
    expect(paid).toEqual([]);
    expect(changed.status).toBe('awaiting_approval');
    const again = changed.pendingApprovals?.[0];
    expect(again).toMatchObject({ input: { account: 'ACC-ON-FILE-2', amount: 5 } });
    expect(again?.hash).not.toBe(pending?.hash);
    expect(again?.changed).toMatch(/account/);
    // A yes to what is shown now runs exactly that.
    const done = await resume(journals, paid, {
      approvals: { [again!.hash]: true },
      hooks: [onFile('ACC-ON-FILE-2')],
    });
    expect(done.status).toBe('done');
    expect(paid).toEqual([{ account: 'ACC-ON-FILE-2', amount: 5 }]);
  });

  it('lists a call deferred before a cancel as pending, and approves nothing that was not listed (defect 5)', async () => {
    const paid: Array<Record<string, unknown>> = [];
    const run = new AbortController();
    const turns = [toolTurn([PAY, { name: 'hang', input: {}, id: 'toolu_h' }]), textTurn('Paid.')];
    const trace: TraceEvent[] = [];
    const { result, journals } = await start({
      turns,
      paid,
      signal: run.signal,
      trace,
      approver: async () => {
        setImmediate(() => run.abort(new Error('Ctrl-C')));
        return 'defer';
      },
    });
    expect(result.status).toBe('error');
    const listed = result.pendingApprovals ?? [];
    expect(listed).toMatchObject([{ tool: 'payout', input: PAY.input }]);
    expect(trace.filter((event) => event.type === 'approval_pending')).toHaveLength(1);
    await expect(resume(journals, paid, { approvals: { '0123456789ab': true } })).rejects.toThrow(
      /not waiting for approval/,
    );
    expect(paid).toEqual([]);
  });
});
