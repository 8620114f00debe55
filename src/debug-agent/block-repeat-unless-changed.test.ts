import { describe, expect, it } from 'vitest';
import type { ToolCallRecord } from '../runtime/types.js';
import { blockRepeatUnlessChanged } from './block-repeat-unless-changed.js';
import { fakeRun } from './testing/playgrounds.js';

const hook = blockRepeatUnlessChanged({ writeTools: ['write_file'] });

function record(tool: string, input: unknown, isError = false): ToolCallRecord {
  return {
    step: 1,
    id: tool,
    tool,
    input,
    decision: isError ? 'ask_denied' : 'allow',
    isError,
    ms: 0,
    resultChars: 1,
    effect: tool === 'write_file' ? 'write' : 'read',
  };
}

async function decide(history: ToolCallRecord[], name: string, input: unknown) {
  const run = fakeRun();
  (run.history as ToolCallRecord[]).push(...history);
  return await hook({ id: 'next', name, input }, run);
}

describe('blockRepeatUnlessChanged', () => {
  it('lets a first call through', async () => {
    expect(await decide([], 'run_test', {})).toBeUndefined();
  });

  it('denies the same call with the same arguments when nothing changed', async () => {
    const verdict = await decide([record('run_test', {})], 'run_test', {});
    expect(verdict).toMatchObject({ decision: 'deny' });
    expect(verdict?.reason).toContain('nothing has changed since');
  });

  it('lets the same call through after a successful write', async () => {
    const history = [record('run_test', {}), record('write_file', { path: 'src/math.ts' })];
    expect(await decide(history, 'run_test', {})).toBeUndefined();
  });

  it('still denies after a write that was refused', async () => {
    const history = [record('run_test', {}), record('write_file', { path: 'a' }, true)];
    expect(await decide(history, 'run_test', {})).toMatchObject({ decision: 'deny' });
  });

  it('compares arguments canonically and lets different ones through', async () => {
    const history = [record('search_code', { query: 'add', path: 'src' })];
    expect(await decide(history, 'search_code', { path: 'src', query: 'add' })).toMatchObject({
      decision: 'deny',
    });
    expect(await decide(history, 'search_code', { query: 'sub' })).toBeUndefined();
  });
});
