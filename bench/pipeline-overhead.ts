import { z } from 'zod';
import { createRealClock } from '../src/core/clock.js';
import { defineTool } from '../src/runtime/define-tool.js';
import { blockRepeatedCall } from '../src/runtime/hooks/block-repeated-call.js';
import { maskCardNumbers } from '../src/runtime/hooks/mask-card-numbers.js';
import { createPermissionPolicy } from '../src/runtime/permissions.js';
import { createToolPipeline } from '../src/runtime/pipeline.js';
import type { RunState } from '../src/runtime/types.js';

/**
 * One tool call through every gate (validate, PreToolUse, permission, timeout
 * wrapper on the real clock, PostToolUse, truncation) around a no-op tool.
 */
export function pipelineOverheadCase() {
  const noop = defineTool({
    name: 'get_noop',
    description: 'Does nothing',
    effect: 'read',
    timeoutMs: 3000,
    parameters: z.object({ order_id: z.string().regex(/^ORD\d{4}$/) }),
    execute: () => 'ok',
  });
  const pipeline = createToolPipeline({
    tools: [noop],
    validate: true,
    hooks: { preToolUse: [blockRepeatedCall()], postToolUse: [maskCardNumbers()] },
    permissions: createPermissionPolicy([
      { effect: 'deny', tool: 'update_*' },
      { effect: 'ask', tool: 'resubmit_*' },
      { effect: 'allow', tool: 'get_*' },
    ]),
    timeouts: true,
    truncateAt: 2000,
  });
  const state: RunState = {
    runId: 'bench',
    step: 1,
    mode: 'unattended',
    clock: createRealClock(),
    history: [],
    store: new Map(),
  };
  const call = { id: 'toolu_bench', name: 'get_noop', input: { order_id: 'ORD1001' } };
  const bare = () => Promise.resolve(noop.execute({ order_id: 'ORD1001' }, {} as never));
  return {
    gated: async () => {
      const outcome = await pipeline.run(call, state, 0);
      if (outcome.kind !== 'result' || outcome.record.decision !== 'allow')
        throw new Error(
          `unexpected ${outcome.kind === 'result' ? outcome.record.decision : outcome.kind}`,
        );
    },
    bare,
  };
}
