import {
  blockRepeatedCall,
  buildSystemPrompt,
  createPermissionPolicy,
  type Harness,
  loadInstructionFiles,
  maskCardNumbers,
  type PermissionRule,
} from '../index.js';
import { ORDERS } from './data.js';
import { refundDeskTools } from './tools.js';

/** The hard-coded prompt of the seed's agent.py: no project rules, no date. */
export const ROLE_PROMPT =
  "You are an after-sales assistant for an online shop. Use the tools to look up orders and payments and answer the customer's question about their refund.";

const BOTTOM_LINE =
  'Bottom line: never invent order or payment data; when a tool fails or refuses, say so plainly and tell the user what happens next.';

/**
 * deny > ask > allow, first match wins. The amount rule is the seed's challenge:
 * a resubmission over 1000 yuan is refused outright, whatever a human says.
 */
export const REFUND_DESK_RULES: PermissionRule[] = [
  { effect: 'deny', tool: 'update_*' },
  { effect: 'deny', tool: 'delete_*' },
  {
    effect: 'deny',
    tool: 'resubmit_refund',
    when: (input) => (ORDERS[String(input.order_id)]?.amount ?? 0) > 1000,
    reason: 'refunds over 1000 yuan are resubmitted by the finance team only',
  },
  { effect: 'ask', tool: 'resubmit_*', reason: 'resubmitting a refund is a write' },
  { effect: 'allow', tool: 'get_*' },
];

export const REFUND_DESK_LIMITS = {
  maxSteps: 8,
  tokenBudget: 60_000,
  noProgressWindow: 3,
  failureStreak: 3,
} as const;

/** The seed's agent.py: the role prompt only, executes whatever the model asks. */
export function createBaselineHarness(): Harness {
  return {
    name: 'baseline',
    tools: refundDeskTools,
    system: () => ROLE_PROMPT,
    limits: { maxSteps: REFUND_DESK_LIMITS.maxSteps },
  };
}

export interface UpgradedHarnessOptions {
  /** Where AGENTS.md (and AGENTS.local.md) live. */
  projectDir: string;
  /** Which instruction files to load; evals load only the committed AGENTS.md. */
  instructionFiles?: string[];
}

/** Every gate of the runtime on: context, validation, hooks, permissions, timeouts, truncation. */
export function createUpgradedHarness(options: UpgradedHarnessOptions): Harness {
  const files = loadInstructionFiles(options.projectDir, options.instructionFiles);
  return {
    name: 'upgraded',
    tools: refundDeskTools,
    system: ({ clock, mode }) =>
      buildSystemPrompt({
        role: `${ROLE_PROMPT}\n${BOTTOM_LINE}`,
        instructionFiles: files,
        clock,
        mode,
      }).text,
    cacheSystemPrompt: true,
    validate: true,
    hooks: { preToolUse: [blockRepeatedCall()], postToolUse: [maskCardNumbers()] },
    permissions: createPermissionPolicy(REFUND_DESK_RULES),
    timeouts: true,
    truncateAt: 2000,
    limits: { ...REFUND_DESK_LIMITS },
  };
}

export const REFUND_DESK_VARIANTS = ['baseline', 'upgraded'] as const;
export type RefundDeskVariant = (typeof REFUND_DESK_VARIANTS)[number];

export function createRefundDeskHarness(
  variant: RefundDeskVariant,
  options: UpgradedHarnessOptions,
): Harness {
  return variant === 'baseline' ? createBaselineHarness() : createUpgradedHarness(options);
}
