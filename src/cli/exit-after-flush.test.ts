import { describe, expect, it } from 'vitest';
import { exitAfterFlush } from './exit-after-flush.js';

/** A stream whose writes complete when the test says so (an asynchronous pipe). */
function slowStream() {
  const pending: Array<(error?: Error | null) => void> = [];
  return {
    pending,
    write(_chunk: string, callback: (error?: Error | null) => void) {
      pending.push(callback);
      return false;
    },
  };
}

describe('exitAfterFlush', () => {
  it('exits only after stdout and stderr have flushed, with the command code', async () => {
    const out = slowStream();
    const err = slowStream();
    const exits: number[] = [];
    const done = exitAfterFlush(3, [out, err], (code) => exits.push(code));
    await new Promise((resolve) => setImmediate(resolve));
    expect(exits).toEqual([]);
    out.pending[0]?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(exits).toEqual([]);
    err.pending[0]?.();
    await done;
    expect(exits).toEqual([3]);
  });

  it('still exits when a reader went away (EPIPE) or the stream refuses the write', async () => {
    const gone = slowStream();
    const broken = {
      write(): boolean {
        throw new Error('write after end');
      },
    };
    const exits: number[] = [];
    const done = exitAfterFlush(0, [gone, broken], (code) => exits.push(code));
    gone.pending[0]?.(Object.assign(new Error('EPIPE'), { code: 'EPIPE' }));
    await done;
    expect(exits).toEqual([0]);
  });
});
