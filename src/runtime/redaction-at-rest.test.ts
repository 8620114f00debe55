import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createVirtualClock } from '../core/clock.js';
import { createFileCheckpointStore } from './checkpoint-store.js';
import { defineTool } from './define-tool.js';
import type { Harness } from './harness.js';
import { maskCardNumbers } from './hooks/mask-card-numbers.js';
import { runAgent } from './run-agent.js';
import { createScriptedModel, textTurn, toolTurn } from './scripted-model.js';
import { createJsonlTrace } from './trace.js';

const CARD = '6222020200112233445';
const FULL_FORMS = [CARD, '6222 0202 0011 2233 445', '6222-0202-0011-2233-445', '4111111111111111'];

/** Takes anything: the model's arguments reach the trace, checkpoint and write log as sent. */
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
    checkpoints: createFileCheckpointStore({ dir: path.join(dir, 'checkpoints') }),
  });
  const files: Record<string, string> = {};
  for (const name of await readdir(path.join(dir, 'checkpoints'))) {
    files[name] = await readFile(path.join(dir, 'checkpoints', name), 'utf8');
  }
  files['trace.jsonl'] = await readFile(path.join(dir, 'trace.jsonl'), 'utf8');
  return { model, result, files };
}

describe('redaction of what a run keeps (item 1: values, never text)', () => {
  it('runs to the end when a tool input holds 12-19 digit JSON numbers, and logs them as numbers', async () => {
    const input = JSON.parse(
      '{"order_id":123456789012,"ts":1727712000007,"big":12345678901234567890}',
    );
    const { result, files } = await run(false, [
      toolTurn([{ name: 'lookup', input }]),
      textTurn('done'),
    ]);
    expect(result.status).toBe('done');
    const toolCall = files['trace.jsonl']
      ?.split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .find((event) => event.type === 'tool_call');
    expect(toolCall).toMatchObject({ decision: 'allow', input: { order_id: 123456789012 } });
    expect(JSON.parse(files['run-1.json'] ?? '{}').history[0].input.order_id).toBe(123456789012);
  });
});

describe('redaction of what a run keeps (item 2: no full card number at rest or to the model)', () => {
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

  it('keeps no full card number, in any written form, in the trace, the checkpoint or writes.jsonl', async () => {
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
    expect(Object.keys(files).sort()).toEqual(['run-1.json', 'run-1.writes.jsonl', 'trace.jsonl']);
    for (const [name, text] of Object.entries(files)) {
      for (const form of FULL_FORMS) expect(text, `${name} holds ${form}`).not.toContain(form);
    }
    expect(files['run-1.writes.jsonl']).toContain('account\\":\\"6222****3445');
    expect(files['run-1.json']).toContain('6222****3445');
  });
});
