import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError } from '../core/errors.js';
import { defineTool } from './define-tool.js';

const base = {
  name: 'get_order',
  description: 'Look up an order.',
  effect: 'read' as const,
  parameters: z.object({ order_id: z.string() }),
  execute: () => 'ok',
};

function configErrorOf(define: () => unknown): ConfigError {
  try {
    define();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('defineTool', () => {
  it('accepts a positive whole timeout up to what a timer can hold, or none', () => {
    expect(defineTool({ ...base, timeoutMs: 3000 }).timeoutMs).toBe(3000);
    expect(defineTool({ ...base, timeoutMs: 2 ** 31 - 1 }).timeoutMs).toBe(2 ** 31 - 1);
    expect(defineTool(base).timeoutMs).toBeUndefined();
  });

  // A live run's setTimeout fires Infinity, NaN or 2^31 after about 1 ms (with a warning), while
  // the eval's virtual clock treats them as "never": the eval would be green, production not.
  it.each([
    ['Infinity', Number.POSITIVE_INFINITY],
    ['NaN', Number.NaN],
    ['-5', -5],
    ['0', 0],
    ['2^31', 2 ** 31],
    ['1.5', 1.5],
    ["'3000' (text)", '3000'],
  ])('refuses timeoutMs %s, naming the tool and the range', (_what, timeoutMs) => {
    const error = configErrorOf(() => defineTool({ ...base, timeoutMs: timeoutMs as number }));
    expect(error.message).toContain("tool 'get_order'");
    expect(error.message).toContain('timeoutMs');
    expect(error.message).toContain('2147483647');
  });

  it('refuses an effect other than read or write: a misspelt write would skip the write log', () => {
    const error = configErrorOf(() =>
      defineTool({ ...base, effect: 'Write' as unknown as 'write' }),
    );
    expect(error.message).toContain("tool 'get_order'");
    expect(error.message).toContain("effect 'Write'");
    expect(error.message).toContain("'read' or 'write'");
  });

  it('refuses parameters that are not a zod object, and an execute that is not a function', () => {
    expect(
      configErrorOf(() =>
        defineTool({
          ...base,
          parameters: { order_id: 'string' } as unknown as typeof base.parameters,
        }),
      ).message,
    ).toMatch(/tool 'get_order'.*parameters.*z\.object/);
    expect(
      configErrorOf(() => defineTool({ ...base, execute: 'ok' as unknown as () => string }))
        .message,
    ).toMatch(/tool 'get_order'.*execute.*function/);
  });

  it('names the tool and the fix when its schema has no JSON Schema form (z.date())', () => {
    const error = configErrorOf(() =>
      defineTool({ ...base, parameters: z.object({ when: z.date() }) }),
    );
    expect(error.message).toContain("tool 'get_order'");
    expect(error.message).toContain('JSON Schema');
    expect(error.message).toContain('z.iso.datetime()');
    expect(error.cause).toBeInstanceOf(Error);
  });
});
