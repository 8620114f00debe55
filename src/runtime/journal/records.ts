import { z } from 'zod';
import { type ErrorCode, HarnessError } from '../../core/errors.js';

/** A run journal that is missing, damaged, another run's, or clashes with the run. */
export class JournalError extends HarnessError {
  constructor(
    code: Extract<ErrorCode, `journal_${string}`>,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/** How one tool call ended; every call gets exactly one. */
export const DecisionSchema = z.enum([
  'unknown',
  'invalid',
  'hook_deny',
  'deny',
  'ask_denied',
  'ask_approved',
  'allow',
  'timeout',
  'failed',
  /**
   * A write whose outcome is unknown: it was started earlier and never got an outcome, or it
   * was cut off by the run's cancel. It is not run again; a human (or its late outcome) settles it.
   */
  'outcome_unknown',
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
  /** Paused until a human approves or rejects a call; resume the run with the decision. */
  'awaiting_approval',
]);

const step = z.number().int().positive();
const index = z.number().int().nonnegative();
const key = z.string().min(1);
const ms = z.number().nonnegative();
/** Content blocks are kept exactly as the API sent them; only their envelope is checked. */
const Block = z.looseObject({ type: z.string() });

/** One line of the journal: the fields every record has, and one fact. */
const RecordSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('run_started'),
      runId: z.string().min(1),
      variant: z.string(),
      model: z.string(),
      mode: z.enum(['interactive', 'unattended']),
      task: z.string().optional(),
      prompt: z.string(),
      /** The system prompt as first sent: a resumed run keeps its date and cache prefix. */
      system: z.string(),
    })
    .strict(),
  z
    .object({
      type: z.literal('model_answered'),
      step,
      content: z.array(Block),
      usage: z.record(z.string(), z.unknown()).nullable(),
      ms,
      stopReason: z.string().nullable(),
    })
    .strict(),
  z
    .object({
      type: z.literal('summary'),
      step,
      text: z.string(),
      /** How many messages after the goal it stands for. */
      messages: step,
      /** What the summary calls cost (usage summed, Messages API shape). */
      usage: z.record(z.string(), z.unknown()).nullable(),
      ms,
    })
    .strict(),
  z
    .object({
      type: z.literal('approval'),
      step,
      index,
      answer: z.enum(['yes', 'no', 'later']),
      /** Why a human is asked (the permission rule's reason). */
      reason: z.string(),
      /** The hash of `value`: the call runs on a yes only while its value has this hash. */
      hash: z.string().optional(),
      /** What the human was asked about (approval-value.ts); absent in older journals. */
      value: z
        .object({ tool: z.string(), input: z.unknown(), key: key.optional() })
        .strict()
        .optional(),
      /** The value differs from the one answered before: what changed. */
      changed: z.string().optional(),
    })
    .strict(),
  z.object({ type: z.literal('intent'), step, index, key }).strict(),
  z
    .object({
      type: z.literal('result'),
      step,
      index,
      decision: DecisionSchema,
      content: z.string(),
      isError: z.boolean(),
      ms,
      effect: z.enum(['read', 'write']).optional(),
      /** A write of a durable run: its key and whether it took effect. */
      write: z
        .object({
          key,
          made: z.enum(['yes', 'no', 'unknown']),
          /** Answered from the journal (made before), not run by this call. */
          replayed: z.literal(true).optional(),
        })
        .strict()
        .optional(),
      /** The tools' store after this call, when it changed (JSON values). */
      store: z.record(z.string(), z.unknown()).optional(),
    })
    .strict(),
  z
    .object({
      type: z.literal('resolved'),
      key,
      made: z.enum(['yes', 'no']),
      /** `tool`: the run learned it (a late result, a late WriteNotMadeError). */
      by: z.enum(['tool', 'human']),
      /** A late result's raw output (before PostToolUse hooks). */
      output: z.string().optional(),
    })
    .strict(),
  z
    .object({
      type: z.literal('run_finished'),
      status: RunStatusSchema.exclude(['error', 'awaiting_approval']),
      answer: z.string(),
      detail: z.string().optional(),
    })
    .strict(),
]);

const EnvelopeSchema = z.object({ seq: z.number().int().positive(), at: z.string().min(1) });

export type JournalFact = z.infer<typeof RecordSchema>;
export type JournalRecord = JournalFact & z.infer<typeof EnvelopeSchema>;
export type RecordOf<T extends JournalFact['type']> = Extract<JournalRecord, { type: T }>;
export type FactOf<T extends JournalFact['type']> = Extract<JournalFact, { type: T }>;
export type RunStarted = RecordOf<'run_started'>;
export type ModelAnswered = RecordOf<'model_answered'>;
export type ResultRecord = RecordOf<'result'>;

/** Checks one parsed line: the fact, then seq and at (kept apart so the union stays strict). */
export function checkRecord(
  data: unknown,
): { ok: true; record: JournalRecord } | { ok: false; problem: string } {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { ok: false, problem: 'it is not a JSON object' };
  }
  const { seq, at, ...fact } = data as Record<string, unknown>;
  const envelope = EnvelopeSchema.safeParse({ seq, at });
  if (!envelope.success) return { ok: false, problem: `seq and at: ${issue(envelope.error)}` };
  const parsed = RecordSchema.safeParse(fact);
  if (!parsed.success) return { ok: false, problem: issue(parsed.error) };
  return { ok: true, record: { ...parsed.data, ...envelope.data } };
}

function issue(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return 'it does not match the journal format';
  const field = first.path.length > 0 ? first.path.map(String).join('.') : '(record)';
  return `${field}: ${first.message}`;
}
