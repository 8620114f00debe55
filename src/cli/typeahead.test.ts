import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
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
afterEach(() => {
  for (const timer of timers.splice(0)) clearInterval(timer);
});

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

  it('stops dropping after a bound when the input never goes quiet, and asks anyway', async () => {
    const { input } = ttyInput(false);
    timers.push(setInterval(() => input.write('x'), 5));
    const dropped = await discardTypeahead(input, { maxMs: 200 });
    expect(dropped).toMatch(/^x+$/);
    expect(input.readableFlowing).toBe(false);
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
