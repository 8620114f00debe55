import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { serialApprover } from '../runtime/serial-approver.js';
import type { ToolCall } from '../runtime/types.js';
import { createTerminalApprover } from './terminal-approver.js';

function terminal() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let shown = '';
  stdout.on('data', (chunk) => {
    shown += String(chunk);
  });
  return { stdin, stdout, shown: () => shown };
}

const call = (order: string, id = `toolu_${order}`): ToolCall => ({
  id,
  name: 'resubmit_refund',
  input: { order_id: order },
});
const turn = () => new Promise(setImmediate);
const prompts = (text: string) => text.match(/approve .*?\[y\/N\/later\] /g) ?? [];

describe('createTerminalApprover', () => {
  // runAgent and resumeAgent serialise every approver, this one included.
  it('asks one question at a time and takes one line per question', async () => {
    const io = terminal();
    const approve = serialApprover(createTerminalApprover(io));
    const first = approve(call('ORD1001'), 'a write');
    const second = approve(call('ORD2002'), 'a write');
    await turn();
    expect(prompts(io.shown())).toEqual([
      'approve resubmit_refund({"order_id":"ORD1001"})? a write [y/N/later] ',
    ]);
    io.stdin.write('y\n');
    expect(await first).toBe(true);
    await turn();
    expect(prompts(io.shown())).toHaveLength(2);
    io.stdin.write('n\n');
    expect(await second).toBe(false);
  });

  it.each([
    ['y', true],
    ['YES', true],
    ['', false],
    ['no', false],
    ['yy', false],
    ['later', 'defer'],
    ['l', 'defer'],
  ])('reads %j as %j', async (line, answer) => {
    const io = terminal();
    const asked = createTerminalApprover(io)(call('ORD1001'), 'a write');
    io.stdin.write(`${line}\n`);
    expect(await asked).toBe(answer);
  });

  it('answers "later", never yes, for the open question and every later one once input ends', async () => {
    const io = terminal();
    const approve = serialApprover(createTerminalApprover(io));
    const first = approve(call('ORD1001'), 'a write');
    const second = approve(call('ORD2002'), 'a write');
    await turn();
    io.stdin.end();
    expect(await first).toBe('defer');
    expect(await second).toBe('defer');
    expect(await approve(call('ORD3003'), 'a write')).toBe('defer');
  });

  it('does not let a line after the answer (a paste of "y\\ny") answer the next question', async () => {
    const io = terminal();
    const approve = serialApprover(createTerminalApprover(io));
    const first = approve(call('ORD1001'), 'a write');
    const second = approve(call('ORD2002'), 'a write');
    io.stdin.write('y\ny\n');
    expect(await first).toBe(true);
    io.stdin.end();
    expect(await second).toBe('defer');
  });

  it('shows control characters and a key in the call as inert text', async () => {
    const io = terminal();
    const hostile: ToolCall = {
      id: 'toolu_1',
      name: 'resubmit_refund',
      input: { order_id: 'ORD1001', reason: 'ok\u009b2J sk-ant-api03-abcdefghijklmnop' },
    };
    const asked = createTerminalApprover(io)(hostile, 'because\u001b[2J\rapprove other? ');
    io.stdin.write('n\n');
    await asked;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character may be shown.
    expect(io.shown()).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(io.shown()).not.toContain('sk-ant-api03-abcdefghijklmnop');
    expect(prompts(io.shown())).toHaveLength(1);
  });
});
