import { z } from 'zod';
import { type ErrorCode, HarnessError } from '../core/errors.js';
import { parseWith } from '../core/parse.js';
import { redactText } from '../core/redact.js';
import { RunStatsSchema } from './run-stats-schema.js';

/**
 * The checkpoint format this build writes; bump it when the shape changes, so that an older
 * build names the version instead of calling the file damaged. v2 added `pendingApproval.made`
 * and `notMade`, and the `cancelled` decision and `run_cancelled` clearing.
 */
export const CHECKPOINT_VERSION = 2;

/** The formats this build reads: v1 (builds just before v2 wrote some of v2's keys under it). */
const READ_VERSIONS: readonly number[] = [1, CHECKPOINT_VERSION];

/** A checkpoint that is missing, corrupt, from another format version, or clashes with the run. */
export class CheckpointError extends HarnessError {
  constructor(
    code: Extract<ErrorCode, `checkpoint_${string}`>,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

const DecisionSchema = z.enum([
  'unknown',
  'invalid',
  'hook_deny',
  'deny',
  'ask_denied',
  'ask_approved',
  'allow',
  'timeout',
  'failed',
  'outcome_unknown',
  'cancelled',
]);

/** Every status a run can end in (adapters' outputs are checked against it too). */
export const RunStatusSchema = z.enum([
  'done',
  'max_steps',
  'token_budget',
  'no_progress',
  'failure_streak',
  'model_stop',
  'error',
  'awaiting_approval',
]);

const ToolCallSchema = z.object({ id: z.string(), name: z.string(), input: z.unknown() }).strict();

// Content blocks are kept as the API shaped them; only the envelope is checked here.
const MessageSchema = z
  .object({
    role: z.enum(['user', 'assistant']),
    content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]),
  })
  .strict();

const ToolCallRecordSchema = z
  .object({
    step: z.number().int().nonnegative(),
    id: z.string(),
    tool: z.string(),
    input: z.unknown(),
    decision: DecisionSchema,
    isError: z.boolean(),
    ms: z.number().nonnegative(),
    resultChars: z.number().int().nonnegative(),
    effect: z.enum(['read', 'write']).optional(),
    replayed: z.boolean().optional(),
  })
  .strict();

export const WriteRecordSchema = z
  .object({
    key: z.string().min(1),
    tool: z.string(),
    input: z.unknown(),
    output: z.string(),
    decision: DecisionSchema,
    step: z.number().int().nonnegative(),
    at: z.string(),
  })
  .strict();

const WriteIntentSchema = z
  .object({
    kind: z.literal('intent'),
    key: z.string().min(1),
    tool: z.string(),
    input: z.unknown(),
    decision: DecisionSchema,
    step: z.number().int().nonnegative(),
    at: z.string(),
  })
  .strict();

const WriteClearedSchema = z
  .object({
    kind: z.literal('cleared'),
    key: z.string().min(1),
    reason: z.enum(['tool_failed', 'human_retry', 'run_cancelled']),
    at: z.string(),
  })
  .strict();

/** One line of a write log: an outcome (no `kind`, as logs before intents were written), an intent, or a cleared intent. */
const WriteLogEntrySchema = z.union([WriteRecordSchema, WriteIntentSchema, WriteClearedSchema]);

/** A write of a paused batch that ran and did not take effect: the answer it was given. */
const NotMadeAnswerSchema = z
  .object({
    tool: z.string(),
    decision: z.enum(['failed', 'timeout', 'cancelled']),
    content: z.string(),
    key: z.string().min(1).optional(),
  })
  .strict();

const PendingApprovalSchema = z
  .object({
    /** The step whose tool calls wait; its assistant message is the last message. */
    step: z.number().int().positive(),
    calls: z.array(ToolCallSchema).min(1),
    /** The calls a human must decide, with the reason they were asked. */
    requests: z
      .array(z.object({ id: z.string(), tool: z.string(), input: z.unknown(), reason: z.string() }))
      .min(1),
    /** Answers given for this batch before it paused, by tool_use id as redacted at rest. */
    answers: z.record(z.string(), z.boolean()),
    /** Its calls (by tool_use id) that reached the write log before it paused: their write keys. */
    made: z.record(z.string(), z.string().min(1)).optional(),
    /** Its writes that ran and did not take effect or timed out, by tool_use id as redacted at rest. */
    notMade: z.record(z.string(), NotMadeAnswerSchema).optional(),
  })
  .strict()
  .superRefine((pending, context) => {
    // Resume answers these from the write log unasked: an id of no paused call is damage. Older
    // builds kept ids in `made` (keys) that the redaction at rest masked in `calls` (values):
    // such an id matches no call on resume, so that call passes its gates again.
    // Every write key is `<tool>:…` (idempotencyKeyFor): a key of another tool is damage too.
    const keyOf = (tool: string, key: string | undefined) =>
      key === undefined || key.startsWith(`${tool}:`);
    for (const [id, key] of Object.entries(pending.made ?? {})) {
      const call = pending.calls.find((each) => each.id === id || each.id === redactText(id));
      if (call && keyOf(call.name, key)) continue;
      context.addIssue({
        code: 'custom',
        path: ['made', id],
        message: call
          ? `is not a write key of ${call.name} (${call.name}:…), the tool of that paused call`
          : 'is not the id of a paused call (in calls): a write made before the pause is one of them',
      });
    }
    // Resume answers these without running them: each must be a call of the batch, of its tool,
    // under the id resume looks it up by (as masked at rest): another would be ignored, unsaid.
    for (const [id, answer] of Object.entries(pending.notMade ?? {})) {
      const ofTool = (call: { id: string; name: string }) =>
        call.name === answer.tool && redactText(call.id) === id;
      if (pending.calls.some(ofTool) && keyOf(answer.tool, answer.key)) continue;
      context.addIssue({
        code: 'custom',
        path: ['notMade', id],
        message: pending.calls.some(ofTool)
          ? `has a key that is not a write key of ${answer.tool} (${answer.tool}:…)`
          : `is not the id of a paused call of that tool (${answer.tool}, in calls): a write that failed or timed out before the pause is one of them`,
      });
    }
  });

/**
 * A run's state after its last completed step. `state` says what resume does: `running`
 * continues the loop, `awaiting_approval` first settles `pendingApproval`, `finished` returns
 * `result` without calling the model.
 */
export const CheckpointSchema = z
  .object({
    version: z.union([z.literal(1), z.literal(CHECKPOINT_VERSION)]),
    runId: z.string().min(1),
    state: z.enum(['running', 'awaiting_approval', 'finished']),
    variant: z.string(),
    model: z.string(),
    mode: z.enum(['interactive', 'unattended']),
    task: z.string().optional(),
    prompt: z.string(),
    /** The system prompt as first sent: a resumed run keeps its date and cache prefix. */
    system: z.string(),
    step: z.number().int().nonnegative(),
    messages: z.array(MessageSchema).min(1),
    history: z.array(ToolCallRecordSchema),
    /** Error text per history entry (null for a success), for the no-progress check. */
    errorTexts: z.array(z.string().nullable()),
    stats: RunStatsSchema,
    /** The per-run tool store (JSON values). */
    store: z.record(z.string(), z.unknown()),
    summary: z.object({ text: z.string(), messages: z.number().int().positive() }).optional(),
    pendingApproval: PendingApprovalSchema.optional(),
    /** Executed writes as of this checkpoint (the store's write log may hold later ones). */
    writes: z.array(WriteRecordSchema),
    result: z
      .object({ status: RunStatusSchema, detail: z.string().optional(), answer: z.string() })
      .strict()
      .optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .strict()
  .refine((checkpoint) => checkpoint.history.length === checkpoint.errorTexts.length, {
    message: 'history and errorTexts must have the same length',
    path: ['errorTexts'],
  })
  .refine((checkpoint) => (checkpoint.state === 'finished') === (checkpoint.result !== undefined), {
    message: 'a finished checkpoint has a result and only a finished one',
    path: ['result'],
  })
  .refine(
    (checkpoint) =>
      (checkpoint.state === 'awaiting_approval') === (checkpoint.pendingApproval !== undefined),
    { message: 'awaiting_approval goes with a pendingApproval', path: ['pendingApproval'] },
  );

export type Checkpoint = z.infer<typeof CheckpointSchema>;

/**
 * Parse a checkpoint's text. `source` names the file (or row) in every error, with the fix.
 * Never falls back to a fresh run: a damaged checkpoint is the user's call.
 */
export function parseCheckpoint(text: string, source: string): Checkpoint {
  const fix =
    'The run was not restarted. Restore the file from a backup, or delete it and start a new run (without --resume).';
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const detail = text.trim() === '' ? 'it is empty' : 'it is not valid JSON (truncated?)';
    throw new CheckpointError('checkpoint_corrupt', `${source} is corrupt: ${detail}. ${fix}`, {
      cause: error,
    });
  }
  const version = (data as { version?: unknown } | null)?.version;
  // Before the shape: a newer format's keys are not damage.
  if (typeof version === 'number' && !READ_VERSIONS.includes(version)) {
    throw new CheckpointError(
      'checkpoint_version',
      `${source} uses checkpoint format v${version}; this build reads ${READ_VERSIONS.map((known) => `v${known}`).join(' and ')}. Resume it with the version of harness-evals that wrote it, or start a new run (without --resume).`,
    );
  }
  return parseWith(
    CheckpointSchema,
    data,
    source,
    (message) => new CheckpointError('checkpoint_corrupt', `${message}. ${fix}`),
  );
}

/** One line of a write log file, checked like a checkpoint. */
export function parseWriteLogEntry(
  line: string,
  source: string,
): z.infer<typeof WriteLogEntrySchema> {
  let data: unknown;
  try {
    data = JSON.parse(line);
  } catch (error) {
    throw new CheckpointError(
      'checkpoint_corrupt',
      `${source} is corrupt: the line is not valid JSON (a crash while appending?). Check whether that write reached the downstream system, then remove the line and resume.`,
      { cause: error },
    );
  }
  return parseWith(
    WriteLogEntrySchema,
    data,
    source,
    (message) =>
      new CheckpointError('checkpoint_corrupt', `${message}. Fix or remove the line and resume.`),
  );
}
