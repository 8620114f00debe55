import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createVirtualClock } from '../core/clock.js';
import { createScriptedModel, textTurn, toolTurn } from '../simulator/scripted-model.js';
import { defineTool } from './define-tool.js';
import type { Harness } from './harness.js';
import { maskCardNumbers } from './hooks/mask-card-numbers.js';
import { createFileJournalStore } from './journal/journal-store.js';
import { runAgent } from './run-agent.js';
import { createJsonlTrace } from './trace.js';

const CARD = '6222020200112233445';
const FULL_FORMS = [CARD, '6222 0202 0011 2233 445', '6222-0202-0011-2233-445', '4111111111111111'];

/** Takes anything: the model's arguments reach the trace and the journal as sent. */
const lookup = defineTool({
  name: 'lookup',
  description: 'Look an order up',
  effect: 'read',
  parameters: z.object({}).passthrough(),
  execute: (args) => {
    if ('decline' in args) throw new Error(`card ${CARD} was declined`);
    return { found: args, refund_account: CARD };
  },
});

const resubmit = defineTool({
  name: 'resubmit',
  description: 'A write whose output quotes the card',
  effect: 'write',
  parameters: z.object({ order_id: z.string() }).passthrough(),
  execute: ({ order_id }) => ({ order_id, status: 'queued', account: '6222 0202 0011 2233 445' }),
});

const harness = (masking: boolean): Harness => ({
  name: masking ? 'upgraded' : 'baseline',
  tools: [lookup, resubmit],
  system: () => 'You look orders up.',
  ...(masking && { hooks: { postToolUse: [maskCardNumbers()] } }),
  limits: { maxSteps: 6 },
});

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function run(masking: boolean, turns: Parameters<typeof createScriptedModel>[0]) {
  dir = await mkdtemp(path.join(tmpdir(), 'redaction-'));
  const model = createScriptedModel(turns);
  const result = await runAgent({
    harness: harness(masking),
    model,
    modelId: 'test-model',
    prompt: 'check order 1',
    clock: createVirtualClock({ start: Date.parse('2026-10-01T09:00:00Z') }),
    mode: 'unattended',
    runId: 'run-1',
    trace: createJsonlTrace(path.join(dir, 'trace.jsonl')),
    journals: createFileJournalStore({ dir: path.join(dir, 'journals') }),
  });
  const files: Record<string, string> = {};
  for (const name of await readdir(path.join(dir, 'journals'))) {
    files[name] = await readFile(path.join(dir, 'journals', name), 'utf8');
  }
  files['trace.jsonl'] = await readFile(path.join(dir, 'trace.jsonl'), 'utf8');
  return { model, result, files };
}

describe('redaction: no full card number to the model or in the trace; the journal keeps exact values', () => {
  it('masks a card in a tool error text before the model sees it (the failed path runs PostToolUse)', async () => {
    const { model, result } = await run(true, [
      toolTurn([{ name: 'lookup', input: { decline: true } }]),
      textTurn('sorry'),
    ]);
    expect(result.toolCalls[0]?.decision).toBe('failed');
    const sent = JSON.stringify(model.requests[1]?.messages.at(-1));
    expect(sent).toContain('lookup failed: card 6222****3445 was declined');
    expect(sent).not.toContain(CARD);
  });

  it('keeps no full card number, in any written form, in the trace; the journal (0600) keeps what the model sent', async () => {
    const { result, files } = await run(true, [
      toolTurn([
        { name: 'lookup', input: { card: '6222 0202 0011 2233 445', n: 4111111111111111 } },
        { name: 'lookup', input: { decline: true } },
      ]),
      toolTurn([
        { name: 'resubmit', input: { order_id: 'ORD1001', note: '6222-0202-0011-2233-445' } },
      ]),
      textTurn('resubmitted'),
    ]);
    expect(result.status).toBe('done');
    expect(Object.keys(files).sort()).toEqual(['run-1.jsonl', 'trace.jsonl']);
    for (const form of FULL_FORMS)
      expect(files['trace.jsonl'], `the trace holds ${form}`).not.toContain(form);
    // The journal is state: a resumed call runs with exactly the arguments the model sent.
    expect(files['run-1.jsonl']).toContain('"card":"6222 0202 0011 2233 445","n":4111111111111111');
    expect((await stat(path.join(dir!, 'journals', 'run-1.jsonl'))).mode & 0o777).toBe(0o600);
    // What the model was shown of the tools' output (results) went through the masking hook.
    const results = files['run-1.jsonl']!.split('\n').filter((line) =>
      line.includes('"type":"result"'),
    );
    expect(results.join('\n')).toContain('6222****3445');
    for (const form of FULL_FORMS) expect(results.join('\n')).not.toContain(form);
  });
});
