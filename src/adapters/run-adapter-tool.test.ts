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

  it('throws a ConfigError on: the setup is wrong, not the model', async () => {
    const run = () => {
      throw new ConfigError('LOOKUP_URL is not set');
    };
    await expect(runAdapterTool(byName(run), 'lookup', {}, context)).rejects.toThrow(ConfigError);
  });
});
