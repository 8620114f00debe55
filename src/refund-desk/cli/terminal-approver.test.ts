import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { serialApprover } from '../../runtime/serial-approver.js';
import type { ToolCall } from '../../runtime/types.js';
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

describe('createTerminalApprover on a terminal: input typed before a question', () => {
  const IGNORED = '(ignored input typed before this question)\n';
  /** A terminal whose stdin is a TTY with a raw mode, as process.stdin is. */
  function tty() {
    const io = terminal();
    const modes: boolean[] = [];
    const stdin = Object.assign(io.stdin, {
      isTTY: true,
      isRaw: false,
      setRawMode(mode: boolean) {
        modes.push(mode);
        stdin.isRaw = mode;
        return stdin;
      },
    });
    return { ...io, stdin, modes };
  }
  /** Until `count` questions are shown (the drain waits for the input to go quiet first). */
  async function untilAsked(io: { shown: () => string }, count = 1) {
    await vi.waitFor(() => expect(prompts(io.shown())).toHaveLength(count), {
      timeout: 20_000,
      interval: 5,
    });
  }
  const settled = (answer: Promise<unknown>) => {
    const state = { settled: false };
    void answer.then(() => {
      state.settled = true;
    });
    return state;
  };

  it('drops a line typed while the agent worked, says so, and waits for a fresh line', async () => {
    const io = tty();
    io.stdin.write('y\n');
    const asked = createTerminalApprover(io)(call('ORD1001'), 'a write');
    const state = settled(asked);
    await untilAsked(io);
    for (let turns = 0; turns < 5; turns += 1) await turn();
    expect(state.settled).toBe(false);
    expect(io.shown()).toBe(
      `${IGNORED}approve resubmit_refund({"order_id":"ORD1001"})? a write [y/N/later] `,
    );
    io.stdin.write('n\n');
    expect(await asked).toBe(false);
  });

  it('drops a half-typed line too: Enter after the question is an empty answer (no)', async () => {
    const io = tty();
    io.stdin.write('y');
    const asked = createTerminalApprover(io)(call('ORD1001'), 'a write');
    await untilAsked(io);
    // The terminal echoed the half-typed "y": the note starts on a fresh line.
    expect(io.shown()).toMatch(/^\n\(ignored input typed before this question\)\napprove /);
    io.stdin.write('\n');
    expect(await asked).toBe(false);
  });

  it('drops a line typed between two questions, after the first was answered', async () => {
    const io = tty();
    const approve = serialApprover(createTerminalApprover(io));
    const first = approve(call('ORD1001'), 'a write');
    await untilAsked(io);
    expect(io.shown()).not.toContain(IGNORED);
    io.stdin.write('y\n');
    expect(await first).toBe(true);
    // The tool runs; the human types ahead before the next question is asked.
    io.stdin.write('y\n');
    const second = approve(call('ORD2002'), 'a write');
    await untilAsked(io, 2);
    expect(io.shown()).toContain(`${IGNORED}approve resubmit_refund({"order_id":"ORD2002"})`);
    io.stdin.write('later\n');
    expect(await second).toBe('defer');
  });

  // It answered "later" without the note, and without marking the input closed.
  it.each([
    ['after a line typed ahead', (stdin: PassThrough) => stdin.end('y\n')],
    ['while draining', (stdin: PassThrough) => void setTimeout(() => stdin.end(), 10)],
  ])('answers "later", never yes, with the note, when the input closed %s', async (_, close) => {
    const io = tty();
    const approve = createTerminalApprover(io);
    close(io.stdin);
    expect(await approve(call('ORD1001'), 'a write')).toBe('defer');
    expect(io.shown()).toMatch(
      /approve resubmit_refund\(\{"order_id":"ORD1001"\}\)\? a write \[y\/N\/later\] \n\(no answer: the input closed; every open question waits for later\)\n$/,
    );
    const shown = io.shown();
    expect(await approve(call('ORD2002'), 'a write')).toBe('defer');
    expect(io.shown()).toBe(shown);
  });

  // After the 1 s bound the question was read at once: the rest of the paste answered it.
  it('shows the question after 1 s of a paste, drops the rest, then asks again for a fresh line', async () => {
    const io = tty();
    const asked = createTerminalApprover(io)(call('ORD1001'), 'a write');
    const state = settled(asked);
    // One line a turn of the event loop (however slow the machine), 50 more once asked.
    let sent = 0;
    let sentWhenAsked = Number.POSITIVE_INFINITY;
    const paste = () => {
      if (state.settled || sent >= sentWhenAsked + 50) return;
      if (sentWhenAsked === Number.POSITIVE_INFINITY && prompts(io.shown()).length > 0) {
        sentWhenAsked = sent;
      }
      io.stdin.write('y\n');
      sent += 1;
      setImmediate(paste);
    };
    paste();
    await Promise.race([
      untilAsked(io, 2),
      asked.then((answer) => {
        throw new Error(`the paste answered ${JSON.stringify(answer)}`);
      }),
    ]);
    const prompt = 'approve resubmit_refund({"order_id":"ORD1001"})? a write [y/N/later] ';
    expect(io.shown()).toBe(
      `${IGNORED}${prompt}\n(ignored input that kept arriving; answer below)\n${prompt}`,
    );
    io.stdin.write('n\n');
    expect(await asked).toBe(false);
  });

  // Raw mode delivers Ctrl-C and Ctrl-D as bytes: the drain dropped them, and kept waiting.
  it.each([
    ['Ctrl-C', '\u0003'],
    ['Ctrl-D', '\u0004'],
  ])('answers "later" to this and every later question at a %s typed before it', async (_, key) => {
    const io = tty();
    const approve = createTerminalApprover(io);
    io.stdin.write(`y${key}`);
    const asked = approve(call('ORD1001'), 'a write');
    await untilAsked(io);
    expect(io.shown()).toBe(
      `\n${IGNORED}approve resubmit_refund({"order_id":"ORD1001"})? a write [y/N/later] \n(no answer: the input closed; every open question waits for later)\n`,
    );
    expect(await asked).toBe('defer');
    const shown = io.shown();
    expect(await approve(call('ORD2002'), 'a write')).toBe('defer');
    expect(io.shown()).toBe(shown);
    expect(io.stdin.isRaw).toBe(false);
  });

  it('leaves the terminal as it found it: paused, its raw mode restored, no listener left', async () => {
    const io = tty();
    const dataListeners = io.stdin.listenerCount('data');
    io.stdin.write('y\n');
    const asked = createTerminalApprover(io)(call('ORD1001'), 'a write');
    await untilAsked(io);
    io.stdin.write('n\n');
    expect(await asked).toBe(false);
    expect(io.stdin.isRaw).toBe(false);
    expect(io.stdin.readableFlowing).toBe(false);
    expect(io.stdin.listenerCount('data')).toBe(dataListeners);
  });

  const WITHDRAWN = '\n(question withdrawn: the run was cancelled)\n';
  const PROMPT = 'approve resubmit_refund({"order_id":"ORD1001"})? a write [y/N/later] ';
  const listeners = (stdin: PassThrough) =>
    ['data', 'end', 'keypress', 'readable'].map((event) => stdin.listenerCount(event));

  it('withdraws the open question when the run is cancelled: a note, "later", the terminal as it was', async () => {
    const io = tty();
    const before = listeners(io.stdin);
    const approve = createTerminalApprover(io);
    const run = new AbortController();
    const asked = approve(call('ORD1001'), 'a write', { signal: run.signal });
    const state = settled(asked);
    await untilAsked(io);
    run.abort(new Error('the user pressed Ctrl-C'));
    await vi.waitFor(() => expect(state.settled).toBe(true), { timeout: 20_000, interval: 5 });
    expect(await asked).toBe('defer');
    expect(io.shown()).toBe(`${PROMPT}${WITHDRAWN}`);
    expect(io.stdin.isRaw).toBe(false);
    expect(io.stdin.readableFlowing).toBe(false);
    expect(listeners(io.stdin)).toEqual(before);
    // The input did not close: a later question (another run's) is asked as before.
    const next = approve(call('ORD2002'), 'a write');
    await untilAsked(io, 2);
    io.stdin.write('y\n');
    expect(await next).toBe(true);
  });

  it('shows no question when the run is cancelled while typed-ahead input is dropped', async () => {
    const io = tty();
    const before = listeners(io.stdin);
    io.stdin.write('y\n');
    const run = new AbortController();
    const asked = createTerminalApprover(io)(call('ORD1001'), 'a write', { signal: run.signal });
    const state = settled(asked);
    run.abort(new Error('the user pressed Ctrl-C'));
    await vi.waitFor(() => expect(state.settled).toBe(true), { timeout: 20_000, interval: 5 });
    expect(await asked).toBe('defer');
    expect(io.shown()).toBe('');
    expect(io.modes).toEqual([true, false]);
    expect(io.stdin.readableFlowing).toBe(false);
    expect(listeners(io.stdin)).toEqual(before);
  });

  it('asks nothing and reads nothing for a run already cancelled', async () => {
    const io = terminal();
    io.stdin.write('y\n');
    const approve = createTerminalApprover(io);
    const signal = AbortSignal.abort(new Error('cancelled'));
    expect(await approve(call('ORD1001'), 'a write', { signal })).toBe('defer');
    expect(io.shown()).toBe('');
    // The line written ahead is still there for the next question.
    expect(await approve(call('ORD2002'), 'a write')).toBe(true);
  });

  it('keeps a piped (non-TTY) input a script: a line written before the question answers it', async () => {
    const io = terminal();
    io.stdin.write('y\n');
    expect(await createTerminalApprover(io)(call('ORD1001'), 'a write')).toBe(true);
    expect(io.shown()).not.toContain(IGNORED);
  });
});
