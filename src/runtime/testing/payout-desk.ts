import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import type { ModelClient } from '../../model-api/model-client.js';
import { textTurn, toolTurn } from '../../simulator/scripted-model.js';
import { defineTool } from '../define-tool.js';
import type { Harness } from '../harness.js';
import { createPermissionPolicy } from '../permissions.js';
import type { PreToolUseHook, ToolDefinition } from '../types.js';
import { stepOf } from './journal-desk.js';

/** A model that answers by step, so a resumed run gets the same answer for the same step. */
export function byStep(turns: readonly Anthropic.Message[]): ModelClient {
  return {
    async createMessage(request) {
      const turn = turns[stepOf(request) - 1];
      if (!turn) throw new Error(`no answer for step ${stepOf(request)}`);
      return structuredClone(turn);
    },
  };
}

/**
 * A payout desk: `remember` keeps a value in the store, `payout` (asks a human) sends it;
 * `hang` (with `hangs`) waits until the run is cancelled. A `remember` of `big` keeps 10n, which JSON cannot.
 */
export function payoutDesk(
  paid: Array<Record<string, unknown>>,
  hooks: PreToolUseHook[] = [],
  hangs = false,
): Harness {
  const remember = defineTool({
    name: 'remember',
    description: 'Keep a value',
    effect: 'read',
    parameters: z.object({ name: z.string(), value: z.string() }),
    execute: ({ name, value }, { run }) => {
      run.store.set(name, name === 'big' ? 10n : value);
      return 'kept';
    },
  });
  const payout = defineTool({
    name: 'payout',
    description: 'Pay',
    effect: 'write',
    parameters: z.object({ account: z.string(), amount: z.number() }),
    execute: (args, { run }) => {
      const token = run.store.get('token');
      paid.push({ ...args, ...(token !== undefined && { token }) });
      return `paid ${args.amount}`;
    },
  });
  const hang = defineTool({
    name: 'hang',
    description: 'Wait until the run is cancelled (with `hangs`), else return at once',
    effect: 'read',
    parameters: z.object({}),
    execute: (_, { signal }) =>
      new Promise((resolve, reject) => {
        if (!hangs) resolve('waited');
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      }),
  });
  return {
    name: 'desk',
    tools: [remember, payout, hang] as unknown as ToolDefinition[],
    system: () => 'desk',
    validate: true,
    hooks: { preToolUse: hooks },
    permissions: createPermissionPolicy([
      { effect: 'ask', tool: 'payout', reason: 'a payout' },
      { effect: 'allow', tool: '*' },
    ]),
    limits: { maxSteps: 6 },
  };
}

export const PAY = { name: 'payout', input: { account: 'ACC-1', amount: 5 }, id: 'toolu_pay' };
export const PAY_TURNS = [toolTurn([PAY]), textTurn('Paid.')];

/** The hook that puts the account on file in place of the model's. */
export const onFile =
  (account: string): PreToolUseHook =>
  (call) =>
    call.name === 'payout' ? { updatedInput: { ...(call.input as object), account } } : undefined;
