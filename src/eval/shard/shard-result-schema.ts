import { z } from 'zod';
import { isVariantName } from '../spec/agent-spec.js';
import { isCaseId } from '../spec/cases.js';
import { FloorSchema, TrialRecordSchema } from '../spec/trial-record.js';
import { TASK_ID } from '../task/task-declaration.js';

export const ShardSelectionSchema = z
  .object({
    trials: z.number().int().min(1),
    trialNumbers: z.array(z.number().int().min(1)).optional(),
    tasks: z.array(z.string()).optional(),
    variants: z.array(z.string()).optional(),
    suites: z.array(z.string()).optional(),
    matching: z.enum(['strict', 'lenient']).optional(),
    cases: z.array(z.string()).optional(),
    caseSample: z.number().int().min(1).optional(),
  })
  .strict();
export type ShardSelection = z.infer<typeof ShardSelectionSchema>;

/** The version of the shard result this build writes and reads. */
export const SHARD_RESULT_VERSION = 2;

/** `reports/shards/shard-<i>-of-<n>.json`: one slice's trial records, merged by `eval --merge`. */
export const ShardResultSchema = z
  .object({
    kind: z.literal('harness-evals-shard'),
    version: z.literal(SHARD_RESULT_VERSION),
    /** The commit checked out where the shard ran (`git rev-parse HEAD`); null outside git. */
    commit: z
      .string()
      .regex(/^[0-9a-f]{40,64}$/)
      .nullable(),
    shard: z
      .object({ index: z.number().int().min(1), count: z.number().int().min(1) })
      .strict()
      .refine((shard) => shard.index <= shard.count, 'the shard index is above the shard count'),
    /** Trials per task and variant of the whole run. */
    trials: z.number().int().min(1),
    selection: ShardSelectionSchema,
    // Task ids end up in file names and markdown: only what defineTask accepts gets through.
    records: z.array(
      TrialRecordSchema.refine((record) => TASK_ID.test(record.task), {
        message: 'not a task id (letters, digits, _ and -, as defineTask requires)',
        path: ['task'],
      })
        .refine((record) => isVariantName(record.variant), {
          message: 'not a variant name (as defineAgent requires)',
          path: ['variant'],
        })
        .refine((record) => record.case === undefined || isCaseId(record.case), {
          message: "not a case id (letters, digits, '_', '-' or '.', as a dataset requires)",
          path: ['case'],
        }),
    ),
    floors: z.array(z.object({ task: z.string(), floor: FloorSchema }).strict()),
    loadErrors: z.array(z.string()),
    /** Every (suite, task, variant) a task file declares, selected or not (`keyOf`). */
    declared: z.array(z.string()),
    /** Each dataset task's cases the selection picked, by JSON [suite, task]: every shard has them all. */
    cases: z
      .record(
        z.string(),
        z.array(z.string().refine(isCaseId, "not a case id (letters, digits, '_', '-' or '.')")),
      )
      .optional(),
  })
  .strict();
export type ShardResult = z.infer<typeof ShardResultSchema>;
