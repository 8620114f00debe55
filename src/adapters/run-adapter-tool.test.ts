import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { runAdapterTool } from './run-adapter-tool.js';
import type { AdapterTool, AgentContext } from './types.js';

const context = {} as AgentContext;
const tool = (run: AdapterTool['run']): AdapterTool => ({
  name: 'lookup',
  parameters: {},
  effect: 'read',
  run,
});
const byName = (run: AdapterTool['run']) => new Map([['lookup', tool(run)]]);

describe('runAdapterTool', () => {
  it('returns the tool text and records the call', async () => {
    const outcome = await runAdapterTool(
      byName(() => 'ok'),
      'lookup',
      { id: 1 },
      context,
    );
    expect(outcome).toEqual({
      text: 'ok',
      isError: false,
      record: { name: 'lookup', input: { id: 1 }, isError: false, effect: 'read' },
    });
  });

  it.each([
    ['an unknown tool', 'nope', () => 'ok', 'error: unknown tool nope'],
    [
      'an Error',
      'lookup',
      () => {
        throw new Error('down');
      },
      'error: down',
    ],
    [
      'an odd thrown value',
      'lookup',
      () => {
        throw Object.create(null);
      },
      'error: ',
    ],
  ])('turns %s into error text for the model', async (_, name, run, text) => {
    const outcome = await runAdapterTool(byName(run as AdapterTool['run']), name, {}, context);
    expect(outcome.isError).toBe(true);
    expect(outcome.text.startsWith(text)).toBe(true);
  });

  it('sends a plain object or array a tool returns (untyped code) as JSON text', async () => {
    for (const value of [{ id: 1, tags: ['a'] }, [1, 2]]) {
      const outcome = await runAdapterTool(
        byName(() => value as never),
        'lookup',
        {},
        context,
      );
      expect(outcome).toMatchObject({ text: JSON.stringify(value), isError: false });
    }
  });

  it.each([
    ['a Map', new Map([['id', 1]]), 'a Map at the top level'],
    ['a BigInt', { total: 10n }, 'a BigInt at /total'],
    ['NaN', { amount: Number.NaN }, 'NaN at /amount'],
  ])(
    'fails a result of %s closed, naming the tool, the value and the fix',
    async (_, value, kind) => {
      const outcome = await runAdapterTool(
        byName(() => value as never),
        'lookup',
        {},
        context,
      );
      expect(outcome.isError).toBe(true);
      expect(outcome.record.isError).toBe(true);
      expect(outcome.text).toBe(
        `error: lookup failed: its result cannot be sent as JSON (${kind}); a tool must return a plain object or array (or text), so this one is broken: do not retry it, tell the user what you could not look up`,
      );
    },
  );

  it('throws a ConfigError on: the setup is wrong, not the model', async () => {
    const run = () => {
      throw new ConfigError('LOOKUP_URL is not set');
    };
    await expect(runAdapterTool(byName(run), 'lookup', {}, context)).rejects.toThrow(ConfigError);
  });
});
