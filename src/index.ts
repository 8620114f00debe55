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
// debug agent (the seed-001 example: a sandboxed code-debugging agent)
export { blockRepeatUnlessChanged } from './debug-agent/block-repeat-unless-changed.js';
export { type ChildResult, runChild } from './debug-agent/child-process.js';
export { type LeveledTool, type PermissionLevel, toolsUpTo } from './debug-agent/levels.js';
export { bundledTestCommand, createRunTestTool, type TestCommand } from './debug-agent/run-test.js';
export { createSandbox, SANDBOX_TEMPLATE_DIR, type Sandbox } from './debug-agent/sandbox.js';
export { type Confinement, resolveSandboxPath } from './debug-agent/sandbox-path.js';
export { createSandboxPool, type SandboxPool } from './debug-agent/sandbox-pool.js';
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
// evals
export { type AgentSpec, defineAgent } from './eval/agent-spec.js';
export { defineTask, type TaskDefinition, type TrialRun } from './eval/define-task.js';
export { passAtK, passHatK } from './eval/metrics.js';
// reports and the gate
export { buildReport } from './eval/report/build-report.js';
export { renderMarkdown } from './eval/report/markdown.js';
export { type EvalReport, EvalReportSchema, parseReport } from './eval/report/report-schema.js';
export { renderTerminal } from './eval/report/terminal.js';
export type { Floor, TrialRecord } from './eval/trial-record.js';
// refund desk (the reference agent)
export { FULL_CARD_NUMBER, ORDERS, PAYMENTS } from './refund-desk/data.js';
export {
  refundDeskTools,
  refundSubmissionsIn,
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
// record / replay
export {
  type Cassette,
  type CassetteMeta,
  CassetteSchema,
  cassettePath,
  type Exchange,
} from './replay/cassette.js';
export { readCassette, writeCassette } from './replay/cassette-file.js';
export { type Divergence, findDivergence, type Normaliser } from './replay/divergence.js';
export { createReplayServer, type ReplayServer } from './replay/replay-server.js';
// runtime
export {
  type Checkpoint,
  CheckpointError,
  CheckpointSchema,
  parseCheckpoint,
} from './runtime/checkpoint.js';
export {
  type CheckpointStore,
  createFileCheckpointStore,
  createMemoryCheckpointStore,
} from './runtime/checkpoint-store.js';
export { type ConcurrencyLimit, createConcurrencyLimit } from './runtime/concurrency-limit.js';
export { buildSystemPrompt, loadInstructionFiles } from './runtime/context.js';
export { defineTool, toAnthropicTools } from './runtime/define-tool.js';
export type { Harness, StopLimits } from './runtime/harness.js';
export { blockRepeatedCall } from './runtime/hooks/block-repeated-call.js';
export { maskCardNumbers } from './runtime/hooks/mask-card-numbers.js';
export {
  createWriteLog,
  idempotencyKeyFor,
  type WriteLog,
  type WriteRecord,
} from './runtime/idempotency.js';
export {
  createAnthropicModel,
  type ModelCallOptions,
  type ModelClient,
  type ModelEvent,
} from './runtime/model-client.js';
export { createPermissionPolicy, type PermissionPolicy, parseRule } from './runtime/permissions.js';
export { createToolPipeline, type ToolPipelineOptions } from './runtime/pipeline.js';
export { type ResumeAgentOptions, resumeAgent } from './runtime/resume-agent.js';
export { createRetryingModel, type RetryingModelOptions } from './runtime/retrying-model.js';
export {
  type ApprovalDecisions,
  type RoleModels,
  type RunAgentOptions,
  type RunResult,
  runAgent,
} from './runtime/run-agent.js';
export { createScriptedModel, textTurn, toolTurn } from './runtime/testing/scripted-model.js';
export {
  createJsonlTrace,
  createMemoryTrace,
  type TraceEvent,
  type TraceSink,
} from './runtime/trace.js';
export { truncateResult } from './runtime/truncate.js';
export type {
  ApprovalAnswer,
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
// trace report
export { formatTraceMarkdown, formatTraceTables } from './trace-report/format.js';
export { parseTrace, readTraces, type TraceFile } from './trace-report/read-traces.js';
export {
  type RunSummary,
  summarizeTraces,
  type ToolSummary,
  type TraceReport,
} from './trace-report/summarize.js';
