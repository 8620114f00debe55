export { formatSseEvent, type SseEvent } from '../model-api/sse.js';
export { type ApiErrorBody, apiErrorBody, errorTypeFor } from './api-error.js';
export {
  type DriveOptions,
  type DriveResult,
  driveConversation,
  type ToolScript,
} from './drive.js';
export { defineJudgeScript, type JudgeScriptRequest } from './judge-script.js';
export { buildMessage } from './message.js';
export { type MessageStreamEvent, toSseEvents } from './message-events.js';
export {
  checkPassRate,
  type PassRate,
  passRateFor,
  seedVariant,
  trialPasses,
} from './pass-rate.js';
export {
  createJudgePolicy,
  JUDGE_HABITS,
  type JudgeHabits,
  judgePolicy,
} from './policies/judge.js';
export {
  answer,
  callTools,
  type Policy,
  plainTextPolicy,
  type Turn,
  type TurnBlock,
} from './policy.js';
export type { MessagesRequest, SimRequest, ToolExchange } from './request.js';
export {
  defaultPolicies,
  type RespondOptions,
  readRequest,
  respond,
  SEED_HEADER,
  type SimResult,
} from './respond.js';
export { createRng, fnv1a, mulberry32, type Rng } from './rng.js';
export {
  type RunningSimulator,
  type SimulatorFault,
  type SimulatorOptions,
  startSimulator,
} from './server.js';
export { estimateUsage } from './usage.js';
