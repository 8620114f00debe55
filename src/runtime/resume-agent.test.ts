import type Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { WriteNotMadeError } from '../core/errors.js';
import { forgetSecretValues, maskSecretValue } from '../core/secret-values.js';
import type { ModelClient } from '../model-api/model-client.js';
import { textTurn, toolTurn } from '../simulator/scripted-model.js';
import { defineTool } from './define-tool.js';
import type { Harness } from './harness.js';
import { createMemoryJournalStore, type JournalStore } from './journal/journal-store.js';
import type { JournalRecord } from './journal/records.js';
import { resumeAgent } from './resume-agent.js';
import { runAgent } from './run-agent.js';
import {
  ACCOUNT,
  type Downstream,
  deskClock,
  journalDesk,
  newDownstream,
  stepOf,
} from './testing/journal-desk.js';
import type { Approver, ToolDefinition } from './types.js';
import { RESOLVED_DONE_OUTPUT } from './write-call.js';

const RUN = 'run';

/** A model that answers by step, so a resumed run gets the same answer; counts its calls. */
function byStep(turns: readonly Anthropic.Message[]) {
  const steps: number[] = [];
  const model: ModelClient = {
    async createMessage(request) {
      const step = stepOf(request);
      steps.push(step);
      const turn = turns[step - 1];
      if (!turn) throw new Error(`no answer for step ${step}`);
      return structuredClone(turn);
    },
  };
  return { model, steps };
}

/** The first tool_result's text in a user message. */
const resultText = (message: Anthropic.MessageParam | undefined) =>
  Array.isArray(message?.content) && message.content[0]?.type === 'tool_result'
    ? message.content[0].content
    : undefined;

const records = (journals: ReturnType<typeof createMemoryJournalStore>): JournalRecord[] =>
  journals.texts
    .get(RUN)!
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as JournalRecord);

const PAYOUT = { name: 'payout', input: { account: ACCOUNT, amount: 428 }, id: 'toolu_pay' };

interface Start {
  harness?: Harness;
  downstream?: Downstream;
  turns: readonly Anthropic.Message[];
  approver?: Approver;
  mode?: 'interactive' | 'unattended';
  signal?: AbortSignal;
  journals?: JournalStore;
}

async function start(options: Start) {
  const downstream = options.downstream ?? newDownstream();
  const journals = createMemoryJournalStore();
  const { model, steps } = byStep(options.turns);
  const result = await runAgent({
    harness: options.harness ?? journalDesk(downstream),
    model,
    modelId: 'scripted',
    prompt: 'Pay 428.00 to the new account.',
    clock: deskClock(),
    mode: options.mode ?? 'interactive',
    ...(options.approver && { approver: options.approver }),
    ...(options.signal && { signal: options.signal }),
    runId: RUN,
    journals,
  });
  return { result, journals, downstream, steps };
}

async function resume(
  started: { journals: ReturnType<typeof createMemoryJournalStore>; downstream: Downstream },
  turns: readonly Anthropic.Message[],
  extra: Partial<Parameters<typeof resumeAgent>[0]> = {},
) {
  const { model, steps } = byStep(turns);
  const result = await resumeAgent({
    runId: RUN,
    journals: started.journals,
    harness: journalDesk(started.downstream),
    model,
    clock: deskClock(),
    ...extra,
  });
  return { result, steps };
}

const PAY_TURNS = [toolTurn([PAYOUT]), textTurn('Paid.')];

describe('resumeAgent: approvals', () => {
  it('runs an approved payout with the exact arguments the model sent, not as masked anywhere (defect 1)', async () => {
    const paused = await start({ turns: PAY_TURNS, approver: async () => 'defer' });
    expect(paused.result.status).toBe('awaiting_approval');
    expect(paused.result.pendingApprovals).toEqual([
      {
        id: 'toolu_pay',
        tool: 'payout',
        input: { account: ACCOUNT, amount: 428 },
        key: expect.stringMatching(/^payout:[0-9a-f]+$/),
        reason: 'a payout is a write',
        hash: expect.stringMatching(/^[0-9a-f]{12}$/),
      },
    ]);
    const { result } = await resume(paused, PAY_TURNS, { approvals: true });
    expect(result.status).toBe('done');
    expect(paused.downstream.writes).toEqual([
      { tool: 'payout', args: { account: ACCOUNT, amount: 428 } },
    ]);
    // The tools' store comes back exact as well.
    expect(result.store.get('payouts')).toEqual([{ account: ACCOUNT, amount: 428 }]);
  });

  it('answers only the calls shown as waiting: a question withdrawn by a cancel is asked again, never approved by --approve (defect 2)', async () => {
    const run = new AbortController();
    const turns = [
      toolTurn([
        PAYOUT,
        { name: 'payout', input: { account: 'DE89 3704', amount: 5 }, id: 'toolu_second' },
      ]),
      textTurn('Done.'),
    ];
    let questions = 0;
    // The first question is deferred to later; the second is open when the run is cancelled.
    const approver: Approver = async (call, _reason, approval) => {
      questions += 1;
      if (call.id === 'toolu_pay') return 'defer';
      setImmediate(() => run.abort(new Error('Ctrl-C')));
      return new Promise((resolve) =>
        approval?.signal.addEventListener('abort', () => resolve(true)),
      );
    };
    const cancelled = await start({ turns, approver, signal: run.signal });
    expect(cancelled.result.status).toBe('error');
    expect(questions).toBe(2);
    expect(records(cancelled.journals).filter((record) => record.type === 'approval')).toEqual([
      expect.objectContaining({ index: 0, answer: 'later' }),
    ]);
    // --approve without a human at hand: the waiting call runs, the withdrawn one is refused.
    const { result } = await resume(cancelled, turns, { approvals: true });
    expect(result.status).toBe('done');
    expect(cancelled.downstream.writes.map((write) => write.args)).toEqual([
      { account: ACCOUNT, amount: 428 },
    ]);
    expect(result.toolCalls.map((call) => call.decision)).toEqual(['ask_approved', 'ask_denied']);
  });

  it('refuses approvals for hashes that are not listed as waiting, recording nothing', async () => {
    const paused = await start({ turns: PAY_TURNS, approver: async () => 'defer' });
    const before = paused.journals.texts.get(RUN);
    const hash = paused.result.pendingApprovals?.[0]?.hash;
    await expect(resume(paused, PAY_TURNS, { approvals: { toolu_pay: true } })).rejects.toThrow(
      new RegExp(
        `approvals name 'toolu_pay', which is not waiting for approval; waiting: ${hash} \\(payout\\) \\(nothing was recorded\\)`,
      ),
    );
    expect(paused.journals.texts.get(RUN)).toBe(before);
  });

  it('keeps a "no": a refused call is not asked again and does not run on resume', async () => {
    const journals = createMemoryJournalStore();
    const downstream = newDownstream();
    // The human said no; the process died before the call's result was journaled.
    const first = await start({ turns: PAY_TURNS, approver: async () => false });
    const lines = first.journals.texts.get(RUN)!.split('\n');
    const cut = lines.findIndex((line) => line.includes('"type":"approval"')) + 1;
    journals.texts.set(RUN, `${lines.slice(0, cut).join('\n')}\n`);
    let asked = 0;
    const { result } = await resume({ journals, downstream }, PAY_TURNS, {
      approvals: true,
      approver: async () => {
        asked += 1;
        return true;
      },
    });
    expect(asked).toBe(0);
    expect(downstream.writes).toEqual([]);
    expect(result.toolCalls.map((call) => call.decision)).toEqual(['ask_denied']);
  });

  it('asks no one in an unattended run', async () => {
    let asked = 0;
    const { result, downstream } = await start({
      turns: PAY_TURNS,
      mode: 'unattended',
      approver: async () => {
        asked += 1;
        return true;
      },
    });
    expect(asked).toBe(0);
    expect(downstream.writes).toEqual([]);
    expect(result.toolCalls[0]).toMatchObject({ decision: 'ask_denied' });
  });
});

describe('resumeAgent: writes', () => {
  const twice = [
    toolTurn([{ name: 'note', input: { text: 'a' }, id: 'toolu_1' }]),
    toolTurn([{ name: 'note', input: { text: 'a' }, id: 'toolu_2' }]),
    textTurn('ok'),
  ];

  function noteDesk(executed: string[]): Harness {
    const note = defineTool({
      name: 'note',
      description: 'Write a note',
      effect: 'write',
      parameters: z.object({ text: z.string() }),
      execute: ({ text }) => {
        executed.push(text);
        return `noted ${text}`;
      },
    });
    return {
      name: 'notes',
      tools: [note] as unknown as ToolDefinition[],
      system: () => 'notes',
      limits: { maxSteps: 5 },
    };
  }

  it('answers a write made earlier from the journal, and does not count it as a second unconfirmed write (defect 3)', async () => {
    const executed: string[] = [];
    const { result } = await start({ harness: noteDesk(executed), turns: twice });
    expect(executed).toEqual(['a']);
    expect(result.toolCalls.map((call) => [call.decision, call.replayed ?? false])).toEqual([
      ['allow', false],
      ['allow', true],
    ]);
    expect(result.stats.unconfirmedWrites).toBe(1);
  });

  it('tells the model a timed-out write is being confirmed, and the result says how its tool settled it later (defect 4)', async () => {
    let fail: () => void = () => {};
    const late = new Promise<void>((resolve) => {
      fail = resolve;
    });
    const slow = defineTool({
      name: 'transfer',
      description: 'Transfer',
      effect: 'write',
      timeoutMs: 1000,
      parameters: z.object({ amount: z.number() }),
      execute: async (_, { clock }) => {
        // Past its timeout (its clock's waits end with the call), until the test lets it fail.
        await clock.sleep(5000).catch(() => undefined);
        await late;
        throw new WriteNotMadeError('the bank refused the transfer before booking it');
      },
    });
    const harness: Harness = {
      name: 'bank',
      tools: [slow] as unknown as ToolDefinition[],
      system: () => 'bank',
      timeouts: true,
      limits: { maxSteps: 5 },
    };
    const turns = [
      toolTurn([{ name: 'transfer', input: { amount: 5 }, id: 'toolu_t' }]),
      textTurn('ok'),
    ];
    const journals = createMemoryJournalStore();
    const inner = byStep(turns);
    const model: ModelClient = {
      async createMessage(request, options) {
        if (stepOf(request) === 2) {
          fail();
          await new Promise((resolve) => setImmediate(resolve));
        }
        return inner.model.createMessage(request, options);
      },
    };
    const result = await runAgent({
      harness,
      model,
      modelId: 'm',
      prompt: 'p',
      clock: deskClock(),
      mode: 'unattended',
      runId: RUN,
      journals,
    });
    const told = result.toolCalls[0];
    expect(told?.decision).toBe('timeout');
    const message = resultText(result.messages[2]);
    expect(message).toMatch(/its outcome is unknown/);
    expect(message).toMatch(/the run reports it to a human, who confirms it/);
    expect(message).not.toMatch(/a human will check/);
    expect(result.writes).toEqual([
      expect.objectContaining({
        key: expect.stringMatching(/^transfer:/),
        made: 'no',
        toldUnknown: true,
      }),
    ]);
  });

  it('settles an unknown write by a human: done answers later calls without running, retry lets the next call run it once', async () => {
    for (const [resolution, expected] of [
      ['done', { executions: 1, content: RESOLVED_DONE_OUTPUT }],
      ['retry', { executions: 2, content: 'paid 428 to 6222020200112233445' }],
    ] as const) {
      const downstream = newDownstream();
      const full = await start({ downstream, turns: PAY_TURNS, approver: async () => true });
      // The process died inside the payout: its intent is journaled, its result is not.
      const lines = full.journals.texts.get(RUN)!.split('\n');
      const cut = lines.findIndex((line) => line.includes('"type":"intent"')) + 1;
      const journals = createMemoryJournalStore();
      journals.texts.set(RUN, `${lines.slice(0, cut).join('\n')}\n`);
      const again = [
        toolTurn([PAYOUT]),
        toolTurn([{ ...PAYOUT, id: 'toolu_again' }]),
        textTurn('Paid.'),
      ];
      const waiting = await resume({ journals, downstream }, again.slice(0, 1));
      expect(waiting.result.status).toBe('error');
      const key = waiting.result.writes?.[0]?.key ?? '';
      expect(waiting.result.writes?.[0]).toMatchObject({ made: 'unknown' });
      const { result } = await resume({ journals, downstream }, again, {
        resolveWrites: { [key]: resolution },
        approver: async () => true,
      });
      expect(result.status).toBe('done');
      expect(downstream.writes).toHaveLength(expected.executions);
      const last = { content: resultText(result.messages.at(-2)) };
      expect(last?.content).toBe(expected.content);
    }
  });

  it('records no decision when one key of several is wrong, so the corrected command still works', async () => {
    const downstream = newDownstream();
    const full = await start({ downstream, turns: PAY_TURNS, approver: async () => true });
    const lines = full.journals.texts.get(RUN)!.split('\n');
    const journals = createMemoryJournalStore();
    journals.texts.set(
      RUN,
      `${lines.slice(0, lines.findIndex((line) => line.includes('"type":"intent"')) + 1).join('\n')}\n`,
    );
    const before = journals.texts.get(RUN);
    const { key } = (await journals.open(RUN)).view.writes.values().next().value!;
    await expect(
      resume({ journals, downstream }, PAY_TURNS, {
        resolveWrites: { [key]: 'done', 'payout:typo': 'retry' },
      }),
    ).rejects.toThrow(
      new RegExp(
        `no write with an unknown outcome has the key 'payout:typo'; writes waiting for a decision: ${key}`,
      ),
    );
    expect(journals.texts.get(RUN)).toBe(before);
  });

  it('refuses a resolution for a key that waits for none, recording nothing', async () => {
    const paused = await start({ turns: PAY_TURNS, approver: async () => 'defer' });
    const before = paused.journals.texts.get(RUN);
    await expect(
      resume(paused, PAY_TURNS, { resolveWrites: { 'payout:nope': 'done' } }),
    ).rejects.toThrow(
      /no write with an unknown outcome has the key 'payout:nope'; no write of this run waits for a decision \(nothing was recorded\)/,
    );
    expect(paused.journals.texts.get(RUN)).toBe(before);
  });
});

describe('resumeAgent: credentials', () => {
  afterEach(forgetSecretValues);

  it('keeps the configured API key out of the journal, and refuses a resumed call whose arguments held it', async () => {
    const key = 'gw-live-0123456789abcdef';
    maskSecretValue(key, 'ANTHROPIC_API_KEY');
    const leak = [
      toolTurn([{ name: 'lookup', input: { order_id: key }, id: 'toolu_leak' }]),
      textTurn('ok'),
    ];
    const full = await start({ turns: leak });
    expect(full.result.toolCalls[0]).toMatchObject({ decision: 'allow' });
    const text = full.journals.texts.get(RUN)!;
    expect(text).not.toContain(key);
    expect(text).toContain('[redacted ANTHROPIC_API_KEY]');
    // Resumed before the call had its result: it would run with the masked text, so it does not.
    const journals = createMemoryJournalStore();
    journals.texts.set(RUN, `${text.split('\n').slice(0, 2).join('\n')}\n`);
    const { result } = await resume({ journals, downstream: full.downstream }, leak);
    expect(result.toolCalls[0]).toMatchObject({ decision: 'invalid', isError: true });
    const shown = resultText(result.messages[2]);
    expect(shown).toMatch(
      /^lookup was not run: its arguments hold a masked credential of this run/,
    );
  });
});

describe('resumeAgent: the run', () => {
  it("returns a finished run's result without calling the model", async () => {
    const done = await start({ turns: PAY_TURNS, approver: async () => true });
    const { result, steps } = await resume(done, PAY_TURNS);
    expect(steps).toEqual([]);
    expect(result).toMatchObject({ status: 'done', answer: 'Paid.' });
    expect(result.messages).toEqual(done.result.messages);
  });

  it('refuses a model answer with two tool calls under one id, from any model client, before anything runs (defect 6)', async () => {
    const twin = toolTurn([PAYOUT, { ...PAYOUT, input: { account: 'x', amount: 1 } }]);
    const { result, downstream, journals } = await start({
      turns: [twin],
      approver: async () => true,
    });
    expect(result.status).toBe('error');
    expect(result.detail).toMatch(/two tool calls under one id \('toolu_pay'\)/);
    expect(downstream.writes).toEqual([]);
    expect(records(journals).map((record) => record.type)).toEqual(['run_started']);
  });

  it('refuses to resume with another harness than the run started with', async () => {
    const paused = await start({ turns: PAY_TURNS, approver: async () => 'defer' });
    await expect(
      resumeAgent({
        runId: RUN,
        journals: paused.journals,
        harness: { ...journalDesk(paused.downstream), name: 'other' },
        model: byStep([]).model,
        clock: deskClock(),
      }),
    ).rejects.toThrow(
      /run 'run' was started with the 'desk' harness; resume it with the same one \(not 'other'\)/,
    );
  });
});
