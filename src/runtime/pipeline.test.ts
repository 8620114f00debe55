import { mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assert, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { createVirtualClock } from '../core/clock.js';
import { defineTool } from './define-tool.js';
import { createToolPipeline, type ToolOutcome, type ToolPipelineOptions } from './pipeline.js';
import { testRunState } from './testing/run-state.js';
import type { RunState, ToolCall } from './types.js';

const runState = (mode: RunState['mode'] = 'unattended') => testRunState({ mode });

const seen: AbortSignal[] = [];
const echo = defineTool({
  name: 'get_echo',
  description: 'Echo',
  effect: 'read',
  timeoutMs: 3000,
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => ({ text }),
});
const hang = defineTool({
  name: 'get_hang',
  description: 'Hangs 10 s on the clock',
  effect: 'read',
  timeoutMs: 3000,
  parameters: z.object({}),
  execute: async (_args, { clock, signal }) => {
    seen.push(signal);
    await clock.sleep(10_000, signal);
    return 'late';
  },
});
const never = defineTool({
  name: 'get_never',
  description: 'Never settles',
  effect: 'read',
  timeoutMs: 500,
  parameters: z.object({}),
  execute: () => new Promise(() => {}),
});
const boom = defineTool({
  name: 'get_boom',
  description: 'Throws',
  effect: 'read',
  parameters: z.object({}),
  execute: () => {
    throw new Error('database exploded');
  },
});
const write = defineTool({
  name: 'set_value',
  description: 'A write',
  effect: 'write',
  parameters: z.object({ value: z.number() }),
  execute: ({ value }) => ({ stored: value }),
});
const noteFile = join(mkdtempSync(join(tmpdir(), 'pipeline-note-')), 'note.txt');
writeFileSync(noteFile, 'a note');
// Real I/O: each read takes event-loop turns that a virtual clock could mistake for idleness.
const readNote = defineTool({
  name: 'get_note',
  description: 'Reads a file, twenty times',
  effect: 'read',
  timeoutMs: 5000,
  parameters: z.object({}),
  execute: async () => {
    let text = '';
    for (let read = 0; read < 20; read += 1) text = await readFile(noteFile, 'utf8');
    return text;
  },
});
const runClockSleep = defineTool({
  name: 'get_slow',
  description: 'Waits 100 ms on the run clock',
  effect: 'read',
  timeoutMs: 3000,
  parameters: z.object({}),
  execute: async (_args, { run }) => {
    await run.clock.sleep(100);
    return 'slow';
  },
});
const tools = [echo, hang, never, boom, write, readNote, runClockSleep];

const call = (name: string, input: unknown, id = `id_${name}`): ToolCall => ({ id, name, input });
/** The outcome of a call that must have ended with a result (these pipelines keep no durable journal). */
function resulted(outcome: ToolOutcome) {
  assert(outcome.kind === 'result', `the call ended '${outcome.kind}', not with a result`);
  return outcome;
}
const pipeline = (options: Partial<ToolPipelineOptions> = {}) =>
  createToolPipeline({ tools, validate: true, timeouts: true, ...options });

describe('createToolPipeline', () => {
  it('labels an unknown tool and lists the available ones', async () => {
    const { record, result } = resulted(
      await pipeline().run(call('get_nothing', {}), runState(), 0),
    );
    expect(record.decision).toBe('unknown');
    expect(result.is_error).toBe(true);
    expect(result.content).toContain('get_echo');
  });

  it.each([
    [{}, "missing required argument 'text'"],
    [{ text: 'a', extra: 1 }, "unexpected argument 'extra'"],
    [{ text: 42 }, "'text'"],
    ['not an object', 'takes an object of named arguments, got string'],
    [null, 'got null'],
  ])('rejects invalid input %j with an actionable message', async (input, expected) => {
    const { record, result } = resulted(
      await pipeline().run(call('get_echo', input), runState(), 0),
    );
    expect(record.decision).toBe('invalid');
    expect(result.is_error).toBe(true);
    expect(result.content).toContain(expected);
  });

  it('lets a PreToolUse hook deny before permissions are asked', async () => {
    const decided: string[] = [];
    const { record, result } = resulted(
      await pipeline({
        hooks: { preToolUse: [() => ({ decision: 'deny', reason: 'not today' })] },
        permissions: {
          decide: (tool) => {
            decided.push(tool);
            return { effect: 'allow', rule: undefined, reason: '' };
          },
        },
      }).run(call('get_echo', { text: 'x' }), runState(), 0),
    );
    expect(record.decision).toBe('hook_deny');
    expect(result.content).toContain('not today');
    expect(decided).toEqual([]);
  });

  it('lets a PreToolUse hook rewrite the input, which is validated again', async () => {
    const rewritten = resulted(
      await pipeline({
        hooks: { preToolUse: [() => ({ updatedInput: { text: 'rewritten' } })] },
      }).run(call('get_echo', { text: 'original' }), runState(), 0),
    );
    expect(rewritten.result.content).toBe('{"text":"rewritten"}');
    const broken = resulted(
      await pipeline({
        hooks: { preToolUse: [() => ({ updatedInput: { text: 7 } })] },
      }).run(call('get_echo', { text: 'original' }), runState(), 0),
    );
    expect(broken.record.decision).toBe('invalid');
  });

  it('refuses a denied call and still answers it with a tool_result', async () => {
    const { record, result } = resulted(
      await pipeline({
        permissions: { decide: () => ({ effect: 'deny', rule: undefined, reason: 'no writes' }) },
      }).run(call('set_value', { value: 1 }, 'toolu_9'), runState(), 0),
    );
    expect(record.decision).toBe('deny');
    expect(result).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_9', is_error: true });
    expect(result.content).toContain('no writes');
  });

  const ask = { decide: () => ({ effect: 'ask' as const, rule: undefined, reason: 'a write' }) };

  it('refuses an ask when unattended, without asking anyone', async () => {
    let asked = false;
    const { record } = resulted(
      await pipeline({
        permissions: ask,
        approver: async () => {
          asked = true;
          return true;
        },
      }).run(call('set_value', { value: 1 }), runState('unattended'), 0),
    );
    expect(record.decision).toBe('ask_denied');
    expect(asked).toBe(false);
  });

  it('asks the approver when interactive and honours yes and no', async () => {
    const yes = resulted(
      await pipeline({ permissions: ask, approver: async () => true }).run(
        call('set_value', { value: 2 }),
        runState('interactive'),
        0,
      ),
    );
    expect(yes.record.decision).toBe('ask_approved');
    expect(yes.result.content).toBe('{"stored":2}');
    const no = resulted(
      await pipeline({ permissions: ask, approver: async () => false }).run(
        call('set_value', { value: 2 }),
        runState('interactive'),
        0,
      ),
    );
    expect(no.record.decision).toBe('ask_denied');
    expect(no.result.content).toContain('declined');
  });

  it('refuses an ask when interactive but nobody can approve (no TTY)', async () => {
    const { record } = resulted(
      await pipeline({ permissions: ask }).run(
        call('set_value', { value: 1 }),
        runState('interactive'),
        0,
      ),
    );
    expect(record.decision).toBe('ask_denied');
  });

  it('cancels a hanging tool at its timeout: the signal aborts and 3000 ms are reported', async () => {
    seen.length = 0;
    const state = runState();
    const { record, result } = resulted(await pipeline().run(call('get_hang', {}), state, 0));
    expect(record.decision).toBe('timeout');
    expect(record.ms).toBe(3000);
    expect(result.content).toContain('timed out after 3000 ms');
    expect(seen[0]?.aborted).toBe(true);
    expect((state.clock as ReturnType<typeof createVirtualClock>).pending()).toBe(0);
  });

  it('waits the whole hang when timeouts are off', async () => {
    const { record } = resulted(
      await pipeline({ timeouts: false }).run(call('get_hang', {}), runState(), 0),
    );
    expect(record.decision).toBe('allow');
    expect(record.ms).toBe(10_000);
  });

  // Not on the virtual clock: it may be waiting on real I/O, so its timeout runs in real time
  // (500 ms here), then the run's clock moves to the deadline.
  it('times out a tool that never settles, after its timeout in real time', async () => {
    const state = runState();
    const started = performance.now();
    const { record } = resulted(await pipeline().run(call('get_never', {}), state, 0));
    expect(record.decision).toBe('timeout');
    expect(record.ms).toBe(500);
    expect(state.clock.now()).toBe(500);
    expect(performance.now() - started).toBeGreaterThanOrEqual(450);
  });

  it('lets a tool finish its real I/O under a virtual clock instead of timing it out', async () => {
    const state = runState();
    const { record, result } = resulted(await pipeline().run(call('get_note', {}), state, 0));
    expect(record.decision).toBe('allow');
    expect(result.content).toBe('a note');
    expect(state.clock.now()).toBe(0);
  });

  it('lets a tool wait on the run clock it is given (context.run.clock)', async () => {
    const { record } = resulted(await pipeline().run(call('get_slow', {}), runState(), 0));
    expect(record.decision).toBe('allow');
    expect(record.ms).toBe(100);
  });

  it('times out a simulated hang while a parallel call does real I/O, which still finishes', async () => {
    const state = runState();
    const outcomes = await pipeline().runAll(
      [call('get_hang', {}, 'a'), call('get_note', {}, 'b')],
      [0, 1],
      state,
    );
    expect(outcomes.map((outcome) => resulted(outcome).record.decision)).toEqual([
      'timeout',
      'allow',
    ]);
    expect(resulted(outcomes[0]!).record.ms).toBe(3000);
    expect(state.clock.now()).toBe(3000);
  });

  it('turns a thrown error into a failed tool_result', async () => {
    const { record, result } = resulted(await pipeline().run(call('get_boom', {}), runState(), 0));
    expect(record.decision).toBe('failed');
    expect(result.content).toBe('get_boom failed: database exploded');
  });

  it('runs PostToolUse hooks on the output, then truncates with a notice', async () => {
    const { result } = resulted(
      await pipeline({
        hooks: { postToolUse: [(_call, output) => output.toUpperCase()] },
        truncateAt: 10,
      }).run(call('get_echo', { text: 'abcdefghijklmnop' }), runState(), 0),
    );
    expect(result.content).toMatch(/^\{"TEXT":"A/);
    expect(result.content).toContain('[truncated: 10 of 27 characters kept]');
  });

  it('runs the calls of one turn in parallel and returns them in call order', async () => {
    const state = runState();
    const outcomes = await pipeline().runAll(
      [call('get_hang', {}, 'a'), call('get_echo', { text: 'b' }, 'b'), call('get_boom', {}, 'c')],
      [0, 1, 2],
      state,
    );
    expect(outcomes.map((outcome) => resulted(outcome).result.tool_use_id)).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(outcomes.map((outcome) => resulted(outcome).record.decision)).toEqual([
      'timeout',
      'allow',
      'failed',
    ]);
    // In parallel: the whole turn took the 3 s of the slowest call, not the sum.
    expect(state.clock.now()).toBe(3000);
  });

  it('skips validation in a baseline pipeline, so the tool sees the raw input', async () => {
    const { record, result } = resulted(
      await createToolPipeline({ tools }).run(call('get_echo', { text: 42 }), runState(), 0),
    );
    expect(record.decision).toBe('allow');
    expect(result.content).toBe('{"text":42}');
  });
});
