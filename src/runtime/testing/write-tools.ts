import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import type { ToolDefinition } from '../types.js';

/**
 * A well-behaved write: it throws on an aborted signal before it writes. `afterCharge` runs
 * once the charge is made (a test cancels the run there).
 */
export function chargeTool(afterCharge?: (amount: number) => void): {
  tool: ToolDefinition;
  executed: number[];
} {
  const executed: number[] = [];
  const tool = defineTool({
    name: 'charge',
    description: 'Charge an amount',
    effect: 'write',
    parameters: z.object({ amount: z.number() }),
    execute: ({ amount }, { signal }) => {
      signal.throwIfAborted();
      executed.push(amount);
      afterCharge?.(amount);
      return `charged ${amount}`;
    },
  }) as ToolDefinition;
  return { tool, executed };
}
