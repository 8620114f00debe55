// agent adapters (agents written without this runtime)
export {
  type AnthropicToolLoopOptions,
  createAnthropicToolLoop,
} from './adapters/anthropic-tool-loop.js';
export {
  type ChatCompletionsAgentOptions,
  createChatCompletionsAgent,
} from './adapters/chat-completions-agent.js';
export {
  type ChatCompletionOptions,
  type ChatCompletionRequest,
  type ChatCompletionResult,
  type ChatMessage,
  createChatCompletion,
} from './adapters/chat-completions-client.js';
export {
  createResponsesAgent,
  type ResponsesAgentOptions,
} from './adapters/responses-agent.js';
export {
  createResponse,
  type ResponseFunctionCall,
  type ResponseItem,
  type ResponsesCallOptions,
  type ResponsesRequest,
  type ResponsesResult,
} from './adapters/responses-client.js';
export type {
  AdapterTool,
  AgentAdapter,
  AgentContext,
  AgentOutput,
  AgentToolCall,
  Provider,
  TokenUsage,
} from './adapters/types.js';
export { chatCompletionsUsage, responsesUsage } from './adapters/usage.js';
export { anthropicUsage } from './model-api/token-usage.js';

// core

// zod, for tool parameters: the same instance the runtime reads schemas with
export { z } from 'zod';
export { canonicalize, canonicalJson } from './core/canonical-json.js';
export {
  type Clock,
  createRealClock,
  createVirtualClock,
  type VirtualClock,
} from './core/clock.js';
export {
  CallEndedError,
  ConfigError,
  FixtureError,
  HarnessError,
  HookTimeoutError,
  ModelApiError,
  type ModelFailureKind,
  SecretLeakError,
  ToolTimeoutError,
  WriteNotMadeError,
} from './core/errors.js';
export { redactText, redactValue } from './core/redact.js';
// for tools that read or write files a model names: a FIFO, device or directory is refused, not waited on
export {
  NotRegularFileError,
  readRegularFile,
  readRegularFileSync,
  writeRegularFile,
} from './core/regular-file.js';
export {
  acquireRunLock,
  type RunLock,
  RunLockedError,
  RunLockFileError,
  type RunLockHolder,
  releaseHeldLocksSync,
} from './core/run-lock.js';
export { defineTask } from './eval/define-task.js';
export {
  type ActualCall,
  type ExpectedCall,
  expectTrajectory,
  matchTrajectory,
  type OrderMode,
  type TrajectoryMatch,
  type TrajectoryOptions,
} from './eval/grade/trajectory.js';
export type { ArgsMode } from './eval/grade/trajectory-args.js';
export { type AgentSpec, defineAgent } from './eval/spec/agent-spec.js';
// evals
// graders: judged checks, trajectory matchers, scores
export {
  defineJudge,
  type JudgeCheck,
  type JudgeInclude,
  type JudgeOptions,
} from './eval/spec/judge.js';
export type { JudgmentRecord, SampleVerdict } from './eval/spec/judgment.js';
export type { Score, ScoreRecord } from './eval/spec/score.js';
export type { CheckScores, TaskDefinition, TrialRun } from './eval/spec/task-definition.js';
// Reports, the gate's statistics and transcripts are in 'harness-evals/report' (src/report.ts):
// an eval worker imports this entry, and it needs none of them.
export type { Floor, TrialRecord } from './eval/spec/trial-record.js';
export { passAtK, passHatK } from './eval/stats/metrics.js';
// runtime
export { type ConcurrencyLimit, createConcurrencyLimit } from './model-api/concurrency-limit.js';
export {
  createAnthropicModel,
  DEFAULT_MODEL_TIMEOUT_MS,
  type ModelCallOptions,
  type ModelClient,
  type ModelEvent,
} from './model-api/model-client.js';
export { createRetryingModel, type RetryingModelOptions } from './model-api/retrying-model.js';
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
export { networkRefused, refuseNetwork } from './replay/network-guard.js';
// createReplayServer (msw, for recording) is in 'harness-evals/replay': importing msw costs
// ~0.2 s, and a replay never needs it.
export {
  REPLAY_BASE_URL,
  type ReplayOptions,
  type ReplayResult,
  type ReplaySession,
  replayCassette,
} from './replay/replay-session.js';
export { buildSystemPrompt, loadInstructionFiles } from './runtime/context.js';
export { defineTool, toAnthropicTools } from './runtime/define-tool.js';
export type { Harness, StopLimits } from './runtime/harness.js';
export { DEFAULT_HOOK_TIMEOUT_MS } from './runtime/hook-deadline.js';
export { blockRepeatedCall } from './runtime/hooks/block-repeated-call.js';
export { maskCardNumbers } from './runtime/hooks/mask-card-numbers.js';
export {
  createFileJournalStore,
  createMemoryJournalStore,
  type JournalStore,
} from './runtime/journal/journal-store.js';
export {
  JournalError,
  type JournalFact,
  type JournalRecord,
} from './runtime/journal/records.js';
export type { WriteState } from './runtime/journal/run-view.js';
export { createPermissionPolicy, type PermissionPolicy, parseRule } from './runtime/permissions.js';
export { createToolPipeline, type ToolPipelineOptions } from './runtime/pipeline.js';
export {
  type ApprovalDecisions,
  type ResumeAgentOptions,
  resumeAgent,
  type WriteResolution,
} from './runtime/resume-agent.js';
export {
  type PendingApproval,
  type RoleModels,
  type RunAgentOptions,
  type RunResult,
  runAgent,
} from './runtime/run-agent.js';
export {
  createJsonlTrace,
  createMemoryTrace,
  type TraceEvent,
  TraceExistsError,
  type TraceSink,
  TraceWriteError,
} from './runtime/trace.js';
export { truncateResult } from './runtime/truncate.js';
export type {
  ApprovalAnswer,
  ApprovalContext,
  Approver,
  Decision,
  PermissionRule,
  PostToolUseHook,
  PreToolUseHook,
  RunMode,
  RunState,
  RunStats,
  RunStatus,
  ToolCall,
  ToolCallRecord,
  ToolDefinition,
  ToolExecuteContext,
} from './runtime/types.js';
export { RESOLVED_DONE_OUTPUT } from './runtime/write-call.js';
export { idempotencyKeyFor } from './runtime/write-key.js';
export { defineJudgeScript, type JudgeScriptRequest } from './simulator/judge-script.js';
// offline model scripts (record --simulated)
export {
  defineModelScript,
  type ModelScriptOptions,
  type ScriptRequest,
  type ScriptTurn,
} from './simulator/model-script.js';
export { type PassRate, trialPasses } from './simulator/pass-rate.js';
export type { Policy } from './simulator/policy.js';
export type { Rng } from './simulator/rng.js';
export { createScriptedModel, textTurn, toolTurn } from './simulator/scripted-model.js';
// trace report
export { formatTraceMarkdown, formatTraceTables } from './trace-report/format.js';
export { parseTrace, readTraces, type TraceFile } from './trace-report/read-traces.js';
export {
  type RunSummary,
  summarizeTraces,
  type ToolSummary,
  type TraceReport,
} from './trace-report/summarize.js';
