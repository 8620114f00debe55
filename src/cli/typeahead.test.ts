import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
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

describe('discardTypeahead', () => {
  it('drops lines and a half-typed one, and returns them', async () => {
    const { input } = ttyInput(false);
    input.write('y\nye');
    expect(await discardTypeahead(input)).toBe('y\nye');
    input.write('n\n');
    expect(String(input.read())).toBe('n\n');
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
