import { rmSync } from 'node:fs';
import type Anthropic from '@anthropic-ai/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../core/canonical-json.js';
import type { MessageRequest } from '../../model-api/model-client.js';
import { resumeAgent } from '../resume-agent.js';
import { runAgent } from '../run-agent.js';
import type { RunResult } from '../run-end.js';
import { type StoreKind, storeHolding } from '../testing/cut-journal.js';
import {
  ACCOUNT,
  type Downstream,
  deskClock,
  deskModel,
  journalDesk,
  stepOf,
} from '../testing/journal-desk.js';
import { createMemoryJournalStore, type JournalStore } from './journal-store.js';
import type { JournalRecord } from './records.js';

// Issue 25, "what must hold" 9: run the desk scenario (parallel reads, a write a human
// approves, a write that times out, a model retry, the model asking for the write again),
// cut its journal after every append (and once more with a torn last line), resume, and check
// invariants 1-6 at every cut.

const RUN = 'crash-points';

interface Reference {
  lines: string[];
  result: RunResult;
  /** Per seq: what had reached the downstream, and the model requests sent, before that record was appended. */
  before: Array<{ writes: Downstream['writes']; requests: number }>;
  requests: MessageRequest[];
  /** Everything that reached the downstream. */
  writes: Downstream['writes'];
}

async function uninterrupted(): Promise<Reference> {
  const downstream: Downstream = { writes: [] };
  const memory = createMemoryJournalStore();
  const { model, requests } = deskModel();
  const before: Reference['before'] = [];
  // Notes what happened before each append: a crash after record k loses what came after.
  const note = (seq: number) => {
    before[seq] = { writes: [...downstream.writes], requests: requests.length };
  };
  const watched: JournalStore = {
    ...memory,
    async create(runId, first) {
      note(first.seq);
      const sink = await memory.create(runId, first);
      return {
        source: sink.source,
        async append(record) {
          note(record.seq);
          await sink.append(record);
        },
      };
    },
  };
  const result = await runAgent({
    harness: journalDesk(downstream),
    model,
    modelId: 'scripted',
    prompt: 'Pay ORD1 and resubmit its refund.',
    clock: deskClock(),
    mode: 'interactive',
    approver: async () => true,
    runId: RUN,
    journals: watched,
  });
  const lines = memory.texts.get(RUN)!.split('\n').slice(0, -1);
  return { lines, result, before, requests, writes: downstream.writes };
}

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Resumes the run from its first `k` records (plus a torn piece of the next one). */
async function resumeAt(
  reference: Reference,
  k: number,
  torn: boolean,
  kind: StoreKind = 'memory',
) {
  const { lines } = reference;
  const prefix = lines
    .slice(0, k)
    .map((line) => `${line}\n`)
    .join('');
  const tornTail =
    torn && k < lines.length ? lines[k]!.slice(0, Math.ceil(lines[k]!.length / 2)) : '';
  const { journals, text } = storeHolding(kind, RUN, prefix + tornTail, scratch);
  // What the downstream holds at this crash: everything done before record k + 1.
  const crash = reference.before[k + 1] ?? {
    writes: reference.writes,
    requests: reference.requests.length,
  };
  const downstream: Downstream = { writes: [...crash.writes] };
  const { model, requests } = deskModel();
  const asked: string[] = [];
  const result = await resumeAgent({
    runId: RUN,
    journals,
    harness: journalDesk(downstream),
    model,
    clock: deskClock(),
    approver: async (call) => {
      asked.push(call.id);
      return true;
    },
    approvals: true,
  });
  const records = text()
    .split('\n')
    .slice(0, -1)
    .map((line) => JSON.parse(line) as JournalRecord);
  return { result, records, downstream, crash, requests, asked, prefix: records.slice(0, k) };
}

const keyOfWrite = (write: { tool: string; args: unknown }) =>
  `${write.tool}:${canonicalJson(write.args)}`;

function toolResults(messages: readonly Anthropic.MessageParam[]) {
  return messages.flatMap((message) =>
    Array.isArray(message.content)
      ? message.content.flatMap((block) =>
          block.type === 'tool_result' ? [{ id: block.tool_use_id, content: block.content }] : [],
        )
      : [],
  );
}

describe('a run cut after every journal record, then resumed', async () => {
  const reference = await uninterrupted();

  it('ran the whole scenario uninterrupted: the payout once with the full account, the hanging write once', () => {
    expect(reference.result.status).toBe('done');
    expect(reference.lines.length).toBeGreaterThan(12);
    expect(reference.writes.map(keyOfWrite).sort()).toEqual([
      keyOfWrite({ tool: 'payout', args: { account: ACCOUNT, amount: 428 } }),
      keyOfWrite({ tool: 'slow_write', args: { order_id: 'ORD1' } }),
    ]);
  });

  const cuts = (['memory', 'file'] as const).flatMap((store) =>
    reference.lines.flatMap((_, index) => [
      { k: index + 1, torn: false, store },
      ...(index + 1 < reference.lines.length ? [{ k: index + 1, torn: true, store }] : []),
    ]),
  );

  it.each(cuts)(
    'holds invariants 1-6 when the journal ends after record $k (torn next line: $torn, $store store)',
    async ({ k, torn, store }) => {
      const resumed = await resumeAt(reference, k, torn, store);
      const { result, records, downstream, crash, requests } = resumed;
      const finalWrites = downstream.writes;

      // 1. Each write reaches the downstream at most once.
      const counts = new Map<string, number>();
      for (const write of finalWrites)
        counts.set(keyOfWrite(write), (counts.get(keyOfWrite(write)) ?? 0) + 1);
      expect([...counts.values()].every((count) => count === 1)).toBe(true);

      // 2. A write whose intent is in the cut journal is not run by the resumed run.
      const newWrites = finalWrites.slice(crash.writes.length);
      const intended = resumed.prefix.filter((record) => record.type === 'intent');
      for (const intent of intended) {
        const call = callAt(records, intent.step, intent.index);
        expect(newWrites.map(keyOfWrite)).not.toContain(
          keyOfWrite({ tool: call.name, args: call.input }),
        );
      }

      // 3. The payout ran only after a yes to that exact call.
      const payouts = finalWrites.filter((write) => write.tool === 'payout');
      if (payouts.length > 0) {
        expect(
          records.some(
            (record) =>
              record.type === 'approval' &&
              record.step === 2 &&
              record.index === 0 &&
              record.answer === 'yes',
          ),
        ).toBe(true);
      }

      // 4. Every call has exactly one result, and the model never saw two results for one call.
      for (const answered of records.filter((record) => record.type === 'model_answered')) {
        const calls = (answered.content as Array<{ type: string }>).filter(
          (block) => block.type === 'tool_use',
        );
        for (const index of calls.keys()) {
          expect(
            records.filter(
              (record) =>
                record.type === 'result' && record.step === answered.step && record.index === index,
            ),
          ).toHaveLength(1);
        }
      }
      const seen = new Map<string, unknown>();
      const sentBefore = reference.requests.slice(0, crash.requests);
      for (const request of [...sentBefore, ...requests]) {
        for (const { id, content } of toolResults(request.messages)) {
          if (seen.has(id)) expect(content).toEqual(seen.get(id));
          seen.set(id, content);
        }
      }

      // 5. No step whose answer was recorded is asked for again; the transcript is the
      //    uninterrupted one, apart from writes whose outcome became unknown.
      const answeredSteps = resumed.prefix.flatMap((record) =>
        record.type === 'model_answered' ? [record.step] : [],
      );
      expect(requests.map(stepOf).filter((step) => answeredSteps.includes(step))).toEqual([]);
      if (resumed.prefix.some((record) => record.type === 'run_finished'))
        expect(requests).toEqual([]);
      expect(result.status).toBe('done');
      expect(result.answer).toBe(reference.result.answer);
      const unknown = new Set(
        records.flatMap((record) =>
          record.type === 'result' && record.write?.made === 'unknown' && !record.write.replayed
            ? [callAt(records, record.step, record.index).id]
            : [],
        ),
      );
      const masked = (messages: readonly Anthropic.MessageParam[], ids: ReadonlySet<string>) =>
        messages.map((message) =>
          Array.isArray(message.content)
            ? {
                ...message,
                content: message.content.map((block) =>
                  block.type === 'tool_result' && ids.has(block.tool_use_id)
                    ? { ...block, content: '(unknown)', is_error: true }
                    : block,
                ),
              }
            : message,
        );
      const referenceUnknown = new Set(['toolu_b2']);
      expect(masked(result.messages, new Set([...unknown, ...referenceUnknown]))).toEqual(
        masked(reference.result.messages, new Set([...unknown, ...referenceUnknown])),
      );

      // 6. A write runs with exactly the arguments the model sent (the full account number).
      for (const payout of payouts) expect(payout.args).toEqual({ account: ACCOUNT, amount: 428 });
      // The tools' store agrees with the journal: it holds the payouts recorded as made.
      const made = records.filter(
        (record) =>
          record.type === 'result' &&
          record.write?.made === 'yes' &&
          !record.write.replayed &&
          callAt(records, record.step, record.index).name === 'payout',
      );
      expect((result.store.get('payouts') as unknown[] | undefined) ?? []).toHaveLength(
        made.length,
      );
    },
  );

  it('finishes the cut journal into one that reads back whole (the torn line is gone)', async () => {
    const resumed = await resumeAt(reference, 5, true);
    expect(resumed.records.map((record) => record.seq)).toEqual(
      resumed.records.map((_, index) => index + 1),
    );
  });
});

function callAt(records: readonly JournalRecord[], step: number, index: number) {
  const answered = records.find(
    (record) => record.type === 'model_answered' && record.step === step,
  );
  if (answered?.type !== 'model_answered') throw new Error(`no answer for step ${step}`);
  const calls = (
    answered.content as Array<{ type: string; id: string; name: string; input: unknown }>
  ).filter((block) => block.type === 'tool_use');
  return calls[index]!;
}
