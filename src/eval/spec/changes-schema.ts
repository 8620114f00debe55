import { z } from 'zod';
import { CuratedSchema, FixtureSourceSchema } from '../../replay/cassette.js';

const Rate = z.number().min(0).max(1).nullable();

/** Who and what recorded one side of a changed cassette. */
export const CassetteProvenanceSchema = z
  .object({
    source: FixtureSourceSchema.optional(),
    host: z.string().optional(),
    model: z.string().optional(),
    recordedAt: z.string().optional(),
    /** sha256 of its canonical content (the hash a recording writes). */
    contentHash: z.string().optional(),
    /** Its `meta.curated` entry: who edited it by hand and why. */
    curated: CuratedSchema.optional(),
  })
  .strict();
export type CassetteProvenance = z.infer<typeof CassetteProvenanceSchema>;

export const FixtureChangeSchema = z
  .object({
    path: z.string(),
    status: z.enum(['added', 'removed', 'modified']),
    before: CassetteProvenanceSchema.optional(),
    after: CassetteProvenanceSchema.optional(),
    /**
     * What the change is: `re-recorded` (a new recordedAt, a recording's provenance), `re-derived`
     * (a simulator cassette whose every answer follows from its request), `edited` (changed but not
     * re-recorded: its content changed while recordedAt did not, or an answer does not follow from
     * its request; fails the gate), `curated` (edited with a new `meta.curated` entry naming who
     * and why), `removed`.
     */
    class: z.enum(['re-recorded', 're-derived', 'edited', 'curated', 'removed']).optional(),
    /** Why it is `edited`. */
    why: z.string().optional(),
    /** The commits since the base that touched it, newest first (at most 3): who changed it. */
    commits: z.array(z.object({ commit: z.string(), author: z.string() }).strict()),
  })
  .strict();
export type FixtureChange = z.infer<typeof FixtureChangeSchema>;

/**
 * A file under evals/ that decides verdicts (a task file, a dataset, a judge rubric, human labels)
 * and differs from the base, with the tasks it decides.
 */
export const InputChangeSchema = z
  .object({
    path: z.string(),
    status: z.enum(['added', 'removed', 'modified']),
    tasks: z.array(z.string()),
  })
  .strict();
export type InputChange = z.infer<typeof InputChangeSchema>;

/** One row of reports/reference.json whose values differ between the base and this checkout. */
export const ReferenceRowChangeSchema = z
  .object({
    suite: z.string(),
    task: z.string(),
    variant: z.string(),
    change: z.enum(['lowered', 'raised', 'added', 'removed', 'other']),
    passAt1: z.object({ before: Rate, after: Rate }).strict(),
    passHatK: z
      .object({ k: z.number().int().min(1).nullable(), before: Rate, after: Rate })
      .strict(),
  })
  .strict();
export type ReferenceRowChange = z.infer<typeof ReferenceRowChangeSchema>;

/**
 * What this checkout changed against the base (`eval --reference-from REF`): the reference the
 * gate reads and the cassettes the trials replay. Shown at the top of every report.
 */
export const ChangesSchema = z
  .object({
    /** The ref as given, and the commit it named. */
    ref: z.string(),
    commit: z.string(),
    reference: z
      .object({
        status: z.enum(['same', 'changed', 'added', 'removed', 'absent']),
        rows: z.array(ReferenceRowChangeSchema),
        /** Some row's pass@1 or pass^k is lower, or a row is gone: the bar was lowered. */
        lowered: z.boolean(),
        /** `--allow-lower-reference` was given (a maintainer's label in CI). */
        allowed: z.boolean(),
        /** Why this checkout's reference could not be read, when it could not. */
        unreadable: z.string().optional(),
        /** Why the base's could not be read whole (its rows, when readable, were still compared). */
        baseUnreadable: z.string().optional(),
      })
      .strict(),
    /** Which reference the gate compared with: the base's, or this checkout's when lowering is allowed. */
    compared: z.enum(['base', 'checkout', 'none']),
    fixtures: z.array(FixtureChangeSchema),
    /** Changed cassettes past the ones listed (0: `fixtures` lists every one). */
    fixturesLeftOut: z.number().int().min(0),
    /** Task files, datasets, rubrics and labels under evals/ changed against the base. */
    inputs: z.array(InputChangeSchema).optional(),
  })
  .strict();
export type Changes = z.infer<typeof ChangesSchema>;
