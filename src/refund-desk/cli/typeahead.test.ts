import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { discardTypeahead } from './typeahead.js';

/** A TTY stand-in with a raw mode that records each switch. */
function ttyInput(isRaw: boolean) {
  const modes: boolean[] = [];
  const input = Object.assign(new PassThrough(), {
    isTTY: true,
    isRaw,
    setRawMode(mode: boolean) {
      modes.push(mode);
      input.isRaw = mode;
      return input;
    },
  });
  return { input, modes };
}

const timers: NodeJS.Timeout[] = [];
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const timer of timers.splice(0)) clearInterval(timer);
  for (const cleanup of cleanups.splice(0)) cleanup();
  vi.useRealTimers();
});

/** Blocks the event loop, as a parallel tool call's synchronous work or a GC pause does. */
function stall(ms: number) {
  const start = Date.now();
  while (Date.now() - start < ms) {}
}

/**
 * Writes `chunk` once per event-loop turn (setImmediate) until `stop()` says so: input that keeps
 * arriving however slow the machine is, since a stall delays the writer and the drain alike.
 */
function pump(input: PassThrough, chunk: (count: number) => string, stop: () => boolean) {
  let count = 0;
  const next = () => {
    if (stop()) return;
    input.write(chunk(count));
    count += 1;
    setImmediate(next);
  };
  setImmediate(next);
  return () => count;
}

/**
 * A fake TTY over a real socket whose peer already wrote `typed`: its data arrives in a poll
 * phase of the event loop, as a terminal's does (a PassThrough's arrives on a nextTick).
 */
async function socketTty(typed: string) {
  const dir = mkdtempSync(join(tmpdir(), 'typeahead-'));
  const path = join(dir, 'tty.sock');
  const server = createServer({ pauseOnConnect: true });
  const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
  await new Promise<void>((resolve) => server.listen(path, resolve));
  const peer = createConnection(path);
  const socket = await accepted;
  await new Promise<void>((resolve, reject) =>
    peer.write(typed, (error) => (error ? reject(error) : resolve())),
  );
  cleanups.push(() => {
    peer.destroy();
    socket.destroy();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const input = Object.assign(socket, {
    isTTY: true,
    isRaw: false,
    setRawMode(mode: boolean) {
      input.isRaw = mode;
      return input;
    },
  });
  return input;
}

describe('discardTypeahead', () => {
  it('drops lines and a half-typed one, and returns them', async () => {
    const { input } = ttyInput(false);
    input.write('y\nye');
    expect(await discardTypeahead(input)).toBe('y\nye');
    input.write('n\n');
    expect(String(input.read())).toBe('n\n');
  });

  // Two event-loop turns (or one nextTick) passed a PassThrough's tests, whose data arrives on
  // resume()'s nextTick, while a real terminal's typed-ahead "y" then answered the question.
  it('drops what the terminal delivers a moment after reading starts', async () => {
    const { input } = ttyInput(false);
    const resume = input.resume.bind(input);
    input.resume = () => {
      timers.push(setTimeout(() => input.write('y\n'), 20));
      input.resume = resume;
      return resume();
    };
    expect(await discardTypeahead(input)).toBe('y\n');
    input.write('n\n');
    expect(String(input.read())).toBe('n\n');
  });

  // The quiet timer fired before the first poll of the terminal: nothing dropped, and the
  // typed-ahead "y" answered the question.
  it('drops what the terminal holds when the event loop stalls past the quiet time', async () => {
    const input = await socketTty('y\n');
    const drained = discardTypeahead(input);
    stall(100);
    expect(await drained).toBe('y\n');
  });

  // After the bound the question was asked and the rest of a long paste answered it.
  it('shows the question after a bound while input keeps arriving, and drops it until it stops', async () => {
    const { input } = ttyInput(false);
    const shownWith: string[] = [];
    let sentWhenShown = Number.POSITIVE_INFINITY;
    let settled = false;
    // 50 more lines after the question is shown, then the input goes quiet.
    const sent = pump(
      input,
      () => 'y\n',
      () => settled || sent() >= sentWhenShown + 50,
    );
    const drained = discardTypeahead(input, {
      maxMs: 200,
      onLong: (dropped) => {
        shownWith.push(dropped);
        sentWhenShown = sent();
      },
    }).finally(() => {
      settled = true;
    });
    const dropped = await drained;
    expect(shownWith).toHaveLength(1);
    expect(shownWith[0]).toMatch(/^(y\n)+$/);
    expect(dropped).toBe('y\n'.repeat(sent()));
    expect(dropped.length).toBeGreaterThan(shownWith[0]?.length ?? 0);
    expect(input.readableFlowing).toBe(false);
    expect(input.listenerCount('data')).toBe(0);
  });

  // Raw mode delivers Ctrl-C and Ctrl-D as bytes: they were dropped as typeahead.
  it.each([
    ['Ctrl-C', '\u0003'],
    ['Ctrl-D', '\u0004'],
  ])('stops at once at a %s, even while input keeps arriving', async (_, key) => {
    const { input } = ttyInput(false);
    let settled = false;
    pump(
      input,
      (count) => (count === 3 ? key : 'x'),
      () => settled,
    );
    const dropped = await discardTypeahead(input).finally(() => {
      settled = true;
    });
    // Not the whole text: at a failure it holds a second's worth of "x".
    expect({ start: dropped.slice(0, 4), length: dropped.length }).toEqual({
      start: `xxx${key}`,
      length: 4,
    });
  });

  // Chunks already buffered came in one go: "x\u0003y\nz" was returned, and the approver took
  // "z" for the Ctrl-C and "x\u0003y\n" for typed text.
  it('ends with the Ctrl-C when more input was buffered behind it', async () => {
    const { input } = ttyInput(false);
    input.pause();
    input.write('x\u0003');
    input.write('y\n');
    input.write('z');
    expect(await discardTypeahead(input)).toBe('x\u0003');
  });

  it('leaves no timer running when raw mode cannot be set', async () => {
    vi.useFakeTimers();
    const { input } = ttyInput(false);
    input.setRawMode = () => {
      throw new Error('setRawMode EIO');
    };
    await expect(discardTypeahead(input)).rejects.toThrow('setRawMode EIO');
    expect(vi.getTimerCount()).toBe(0);
    expect(input.listenerCount('data')).toBe(0);
  });

  it('returns nothing when nothing was typed', async () => {
    const { input } = ttyInput(false);
    expect(await discardTypeahead(input)).toBe('');
  });

  it.each([false, true])(
    'leaves the input paused and in its mode (raw before: %s), raw only while draining',
    async (wasRaw) => {
      const { input, modes } = ttyInput(wasRaw);
      input.write('y\n');
      await discardTypeahead(input);
      expect(input.readableFlowing).toBe(false);
      expect(input.isRaw).toBe(wasRaw);
      expect(modes).toEqual([true, wasRaw]);
      expect(input.listenerCount('data')).toBe(0);
    },
  );
});
