import { appendFileSync } from 'node:fs';
import { z } from 'zod';
import { textTurn, toolTurn } from '../../simulator/scripted-model.js';
import { defineTool } from '../define-tool.js';
import type { Harness } from '../harness.js';
import type { PermissionPolicy } from '../permissions.js';

export const CRASH_RUN_ID = 'crash-run';
export const FROZEN = 'FROZEN';

/** Where the child freezes to be killed: inside the write (after it reached the downstream), or after its result is journaled. */
export type CrashPoint = 'in-write' | 'after-result';

/**
 * A two-tool harness whose write lands in a downstream file that outlives the process, so a
 * test can count what really reached "the refund system" after a SIGKILL.
 */
export function crashHarness(downstreamFile: string, afterWrite?: () => void): Harness {
  const lookup = defineTool({
    name: 'lookup_order',
    description: 'Look an order up',
    effect: 'read',
    parameters: z.object({ order_id: z.string() }),
    execute: ({ order_id }) => ({ order_id, status: 'refund under review' }),
  });
  const submit = defineTool({
    name: 'submit_refund',
    description: 'Submit a refund (a write)',
    effect: 'write',
    parameters: z.object({ order_id: z.string() }),
    idempotencyKey: ({ order_id }) => `${order_id}:submit`,
    execute: ({ order_id }, { idempotencyKey }) => {
      appendFileSync(downstreamFile, `${JSON.stringify({ order_id, idempotencyKey })}\n`);
      afterWrite?.();
      return `refund for ${order_id} submitted`;
    },
  });
  const allowAll: PermissionPolicy = {
    rules: [],
    decide: () => ({ effect: 'allow', rule: undefined, reason: 'test harness' }),
  };
  return {
    name: 'crash',
    tools: [lookup, submit] as never,
    system: () => 'Refund desk (crash test).',
    validate: true,
    permissions: allowAll,
    limits: { maxSteps: 6 },
  };
}

/** Step 1 looks the order up, step 2 submits the refund (the process is killed there). */
export const beforeCrashTurns = () => [
  toolTurn([{ name: 'lookup_order', input: { order_id: 'ORD1001' } }]),
  toolTurn([{ name: 'submit_refund', input: { order_id: 'ORD1001' }, id: 'toolu_first_life' }]),
];

/** After the resume (step 3) the model asks for the same write again, then answers (step 4). */
export const afterCrashTurns = () => [
  toolTurn([{ name: 'submit_refund', input: { order_id: 'ORD1001' }, id: 'toolu_second_life' }]),
  textTurn('The refund for ORD1001 is submitted.'),
];
