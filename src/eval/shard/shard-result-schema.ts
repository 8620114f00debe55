import { z } from 'zod';
import { TASK_ID } from '../task/task-declaration.js';
import { FloorSchema, TrialRecordSchema } from '../trial/trial-record.js';

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

/** `reports/shards/shard-<i>-of-<n>.json`: one slice's trial records, merged by `eval --merge`. */
export const ShardResultSchema = z
  .object({
    kind: z.literal('harness-evals-shard'),
    version: z.literal(1),
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
      }),
    ),
    floors: z.array(z.object({ task: z.string(), floor: FloorSchema }).strict()),
    loadErrors: z.array(z.string()),
    /** Every (suite, task, variant) a task file declares, selected or not (`keyOf`). */
    declared: z.array(z.string()),
    /** Each dataset task's cases the selection picked, by JSON [suite, task]: every shard has them all. */
    cases: z.record(z.string(), z.array(z.string())).optional(),
  })
  .strict();
export type ShardResult = z.infer<typeof ShardResultSchema>;
