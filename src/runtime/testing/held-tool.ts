import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import type { ToolDefinition } from '../types.js';

/**
 * A read (`lookup`) that answers at once until `hold()`, then waits for `release()`: another
 * call of the batch is still running while a test does something. It ignores its signal, as
 * most reads do.
 */
export function heldLookup(): { tool: ToolDefinition; hold(): void; release(): void } {
  let gate: Promise<void> = Promise.resolve();
  let open: () => void = () => {};
  const tool = defineTool({
    name: 'lookup',
    description: 'Look an order up',
    effect: 'read',
    parameters: z.object({}),
    execute: async () => {
      await gate;
      return 'looked up';
    },
  }) as ToolDefinition;
  return {
    tool,
    hold() {
      gate = new Promise<void>((resolve) => {
        open = resolve;
      });
    },
    release: () => open(),
  };
}
