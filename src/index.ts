// core

export { canonicalize, canonicalJson } from './core/canonical-json.js';
export {
  type Clock,
  createRealClock,
  createVirtualClock,
  type VirtualClock,
} from './core/clock.js';
export {
  ConfigError,
  FixtureError,
  HarnessError,
  ModelApiError,
  SecretLeakError,
  ToolTimeoutError,
} from './core/errors.js';
// evals
export { type AgentSpec, defineAgent } from './eval/agent-spec.js';
export { defineTask, type TaskDefinition, type TrialRun } from './eval/define-task.js';
export { passAtK, passHatK } from './eval/metrics.js';
export type { Floor, TrialRecord } from './eval/trial-record.js';
// refund desk (the reference agent)
export { FULL_CARD_NUMBER, ORDERS, PAYMENTS } from './refund-desk/data.js';
export { refundDeskTools, refundSubmissionsOf } from './refund-desk/tools.js';
export {
  createBaselineHarness,
  createRefundDeskHarness,
  createUpgradedHarness,
  REFUND_DESK_RULES,
  REFUND_DESK_VARIANTS,
  type RefundDeskVariant,
} from './refund-desk/variants.js';
// runtime
export { buildSystemPrompt, loadInstructionFiles } from './runtime/context.js';
export { defineTool, toAnthropicTools } from './runtime/define-tool.js';
export type { Harness, StopLimits } from './runtime/harness.js';
export { blockRepeatedCall } from './runtime/hooks/block-repeated-call.js';
export { maskCardNumbers } from './runtime/hooks/mask-card-numbers.js';
export { createAnthropicModel, type ModelClient } from './runtime/model-client.js';
export { createPermissionPolicy, type PermissionPolicy, parseRule } from './runtime/permissions.js';
export { createToolPipeline, type ToolPipelineOptions } from './runtime/pipeline.js';
export { type RunAgentOptions, type RunResult, runAgent } from './runtime/run-agent.js';
export { createScriptedModel, textTurn, toolTurn } from './runtime/testing/scripted-model.js';
export {
  createJsonlTrace,
  createMemoryTrace,
  type TraceEvent,
  type TraceSink,
} from './runtime/trace.js';
export { truncateResult } from './runtime/truncate.js';
export type {
  Approver,
  Decision,
  PermissionRule,
  RunMode,
  RunStats,
  RunStatus,
  ToolCall,
  ToolCallRecord,
  ToolDefinition,
} from './runtime/types.js';
