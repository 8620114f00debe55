/**
 * The reference project's two example agents (refund desk, debug agent). They are this
 * repository's own use of harness-evals, not part of the installed package: evals/ imports
 * them from here, the generic API from src/index.ts.
 */
// debug agent (the seed-001 example: a sandboxed code-debugging agent)
export { blockRepeatUnlessChanged } from './debug-agent/block-repeat-unless-changed.js';
export { type ChildResult, runChild } from './debug-agent/child-process.js';
export { type LeveledTool, type PermissionLevel, toolsUpTo } from './debug-agent/levels.js';
export { bundledTestCommand, createRunTestTool, type TestCommand } from './debug-agent/run-test.js';
export { createSandbox, SANDBOX_TEMPLATE_DIR, type Sandbox } from './debug-agent/sandbox.js';
export { type Confinement, resolveSandboxPath } from './debug-agent/sandbox-path.js';
export { createSandboxPool, type SandboxPool } from './debug-agent/sandbox-pool.js';
// The example agents' simulated models, which the simulator does not know by itself: evals/*.agent.ts
// register them as the agents' model scripts (record --simulated, record --verify), and
// createRefundDeskPolicy takes a chosen pass rate per variant.
export {
  createDebugAgentPolicy,
  DEBUG_AGENT_HABITS,
  type DebugAgentHabits,
  debugAgentPolicy,
} from './debug-agent/simulator-policy.js';
export {
  type SandboxWrite,
  sandboxWritesOf,
  type TestRun,
  testRunsOf,
} from './debug-agent/store.js';
export {
  createDebugAgentHarness,
  createDebugAgentTools,
  DEBUG_AGENT_VARIANTS,
  type DebugAgentOptions,
  type DebugAgentVariant,
  debugAgentRules,
  SEED_SYSTEM_PROMPT,
} from './debug-agent/variants.js';
// refund desk (the reference agent)
export { FULL_CARD_NUMBER, ORDERS, PAYMENTS } from './refund-desk/data.js';
export {
  createRefundDeskPolicy,
  REFUND_DESK_HABITS,
  type RefundDeskHabits,
  type RefundDeskOptions,
  refundDeskPolicy,
} from './refund-desk/simulator-policy.js';
export {
  refundDeskTools,
  refundSubmissionsOf,
} from './refund-desk/tools.js';
export {
  createBaselineHarness,
  createRefundDeskHarness,
  createUpgradedHarness,
  REFUND_DESK_RULES,
  REFUND_DESK_VARIANTS,
  type RefundDeskVariant,
} from './refund-desk/variants.js';
