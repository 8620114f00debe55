import { rmSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import type Anthropic from '@anthropic-ai/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { textTurn, toolTurn } from '../../simulator/scripted-model.js';
import { resumeAgent } from '../resume-agent.js';
import { runAgent } from '../run-agent.js';
import { pendingApprovals } from '../run-end.js';
import { storeHolding } from '../testing/cut-journal.js';
import { deskClock } from '../testing/journal-desk.js';
import { byStep, onFile, PAY, PAY_TURNS, payoutDesk } from '../testing/payout-desk.js';
import type { Approver, PreToolUseHook } from '../types.js';
import { createMemoryJournalStore, type JournalStore } from './journal-store.js';
import type { JournalRecord } from './records.js';

// Issue 34, point 3: the approval path cut after every journal record (and with a torn next
// line), on both stores, resumed with `--approve` (every listed call), alone or by two resumes
// racing. At every cut: exactly what was approved ran, at most once; nothing unlisted was
// approved; the journal stays resumable.

const RUN = 'cut';
type Paid = Array<Record<string, unknown>>;

interface Scenario {
  name: string;
  turns: readonly Anthropic.Message[];
  startHooks: PreToolUseHook[];
  resumeHooks: PreToolUseHook[];
  /** The first run's approver; `cancel` cancels that run. */
  approver: (cancel: () => void) => Approver;
}

const FILE_1 = [onFile('ACC-ON-FILE-1')];
const FILE_2 = [onFile('ACC-ON-FILE-2')];
const later = () => async () => 'defer' as const;

const SCENARIOS: Scenario[] = [
  {
    name: 'deferred, same hooks',
    turns: PAY_TURNS,
    startHooks: FILE_1,
    resumeHooks: FILE_1,
    approver: later,
  },
  {
    name: 'deferred, hooks changed before the resume',
    turns: PAY_TURNS,
    startHooks: FILE_1,
    resumeHooks: FILE_2,
    approver: later,
  },
  {
    name: 'approved at the terminal, hooks changed before the resume',
    turns: PAY_TURNS,
    startHooks: FILE_1,
    resumeHooks: FILE_2,
    approver: () => async () => true,
  },
  {
    name: 'a store value JSON cannot take',
    turns: [
      toolTurn([{ name: 'remember', input: { name: 'big', value: 'x' }, id: 'toolu_big' }, PAY]),
      textTurn('Paid.'),
    ],
    startHooks: [],
    resumeHooks: [],
    approver: () => async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return true;
    },
  },
  {
    name: 'cancelled while a call is deferred',
    turns: [toolTurn([PAY, { name: 'hang', input: {}, id: 'toolu_h' }]), textTurn('Paid.')],
    startHooks: [],
    resumeHooks: [],
    approver: (cancel) => async () => {
      setImmediate(cancel);
      return 'defer';
    },
  },
];

/** The uninterrupted first run: its journal lines, and what had been paid before each record. */
async function reference(scenario: Scenario) {
  const paid: Paid = [];
  const before: Paid[] = [];
  const memory = createMemoryJournalStore();
  const watched: JournalStore = {
    ...memory,
    async create(runId, first) {
      before[first.seq] = [...paid];
      const sink = await memory.create(runId, first);
      return {
        source: sink.source,
        async append(record) {
          before[record.seq] = [...paid];
          await sink.append(record);
        },
      };
    },
  };
  const run = new AbortController();
  const result = await runAgent({
    harness: payoutDesk(paid, scenario.startHooks, true),
    model: byStep(scenario.turns),
    modelId: 'm',
    prompt: 'Pay.',
    clock: deskClock(),
    mode: 'interactive',
    approver: scenario.approver(() => run.abort(new Error('Ctrl-C'))),
    signal: run.signal,
    runId: RUN,
    journals: watched,
  });
  const lines = memory.texts.get(RUN)!.split('\n').slice(0, -1);
  return { lines, before, paid, status: result.status };
}

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const cases = SCENARIOS.flatMap((scenario) =>
  (['memory', 'file'] as const).flatMap((store) =>
    [false, true].map((race) => ({ scenario, name: scenario.name, store, race })),
  ),
);

describe('the approval path cut after every journal record, then resumed with --approve', () => {
  it.each(cases)(
    '$name ($store store, two resumes racing: $race)',
    async ({ scenario, store, race }) => {
      const ref = await reference(scenario);
      for (const index of ref.lines.keys()) {
        for (const torn of index + 1 < ref.lines.length ? [false, true] : [false]) {
          const k = index + 1;
          const where = `cut after record ${k}${torn ? ' (torn next line)' : ''}`;
          const next = ref.lines[k];
          const tail = torn && next ? next.slice(0, Math.ceil(next.length / 2)) : '';
          const text = `${ref.lines.slice(0, k).join('\n')}\n${tail}`;
          const cut = storeHolding(store, RUN, text, scratch);
          const listed = pendingApprovals((await cut.journals.open(RUN)).view).map(
            (call) => call.hash,
          );
          const paid: Paid = [...(ref.before[k + 1] ?? ref.paid)];
          const resume = () =>
            resumeAgent({
              runId: RUN,
              journals: cut.journals,
              harness: payoutDesk(paid, scenario.resumeHooks),
              model: byStep(scenario.turns),
              clock: deskClock(),
              approvals: true,
            });
          const settled = await Promise.allSettled(race ? [resume(), resume()] : [resume()]);
          const refused = settled.flatMap((each) =>
            each.status === 'rejected' ? [each.reason] : [],
          );
          expect(refused.length, where).toBe(race ? 1 : 0);
          for (const reason of refused)
            expect((reason as { code?: string }).code, where).toBe('run_locked');

          // The journal stays resumable.
          await expect(cut.journals.open(RUN), where).resolves.toBeDefined();
          const records = cut
            .text()
            .split('\n')
            .filter(Boolean)
            .map((each) => JSON.parse(each) as JournalRecord);
          // Each payout at most once.
          const keys = paid.map((each) => `${each.account}:${each.amount}`);
          expect(new Set(keys).size, where).toBe(keys.length);
          // Exactly what was approved ran: each payout's value has a yes.
          const yes = records.flatMap((record) =>
            record.type === 'approval' && record.answer === 'yes' ? [record] : [],
          );
          for (const each of paid) {
            const ran = { account: each.account, amount: each.amount };
            expect(
              yes.some((record) => isDeepStrictEqual(record.value?.input, ran)),
              `${where}: ${JSON.stringify(ran)} ran without a yes to it`,
            ).toBe(true);
          }
          // Nothing unlisted: every yes the resume gave names a value listed at the cut.
          for (const record of yes.filter((each) => each.seq > k)) {
            expect(listed, `${where}: a yes to ${record.hash}, which was not listed`).toContain(
              record.hash,
            );
          }
        }
      }
    },
  );

  it('runs first runs that do what their names say', async () => {
    const statuses = [];
    for (const scenario of SCENARIOS) {
      const { status, lines } = await reference(scenario);
      statuses.push([scenario.name, status, lines.some((line) => line.includes('"later"'))]);
    }
    expect(statuses).toEqual([
      ['deferred, same hooks', 'awaiting_approval', true],
      ['deferred, hooks changed before the resume', 'awaiting_approval', true],
      ['approved at the terminal, hooks changed before the resume', 'done', false],
      ['a store value JSON cannot take', 'error', false],
      ['cancelled while a call is deferred', 'error', true],
    ]);
  });

  it('runs the approved value when the hooks still give it, and not the changed one', async () => {
    const ran = async (resumeHooks: PreToolUseHook[]) => {
      const scenario = SCENARIOS.find((each) => each.name === 'deferred, same hooks')!;
      const ref = await reference(scenario);
      const cut = storeHolding('memory', RUN, `${ref.lines.join('\n')}\n`, scratch);
      const paid: Paid = [];
      await resumeAgent({
        runId: RUN,
        journals: cut.journals,
        harness: payoutDesk(paid, resumeHooks),
        model: byStep(scenario.turns),
        clock: deskClock(),
        approvals: true,
      });
      return paid;
    };
    expect(await ran(FILE_1)).toEqual([{ account: 'ACC-ON-FILE-1', amount: 5 }]);
    expect(await ran(FILE_2)).toEqual([]);
  });
});
