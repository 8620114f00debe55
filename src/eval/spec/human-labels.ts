import { existsSync } from 'node:fs';
import { z } from 'zod';
import { TaskInputError } from '../../core/errors.js';
import { describeZodIssues } from '../../core/parse.js';
import { cassettePath } from '../../replay/cassette.js';
import { CONTENT_HASH } from '../../replay/cassette-hash.js';
import type { JudgmentRecord } from './judgment.js';
import { readTaskFile } from './task-files.js';

/**
 * What a human said about some trials of one judged check: the committed file calibration
 * reads (`humanLabels` of defineJudge). Each label names a recorded trial by variant and number.
 *
 * @example
 * { "by": "support lead", "labels": [{ "variant": "upgraded", "trial": 1, "label": "pass" }] }
 */
export const HumanLabelsSchema = z
  .object({
    /** The judged check the labels are for; checked against the judge's name when given. */
    judge: z.string().optional(),
    /** Who labelled, for the reader. */
    by: z.string().optional(),
    labels: z
      .array(
        z
          .object({
            variant: z.string().min(1),
            trial: z.number().int().min(1),
            label: z.enum(['pass', 'fail']),
            /** The human's score in 0..1, beside the label (the viewer's labelling mode writes it). */
            score: z.number().min(0).max(1).optional(),
            note: z.string().optional(),
            /**
             * The content hash of the cassette the human read (`sha256:...`): a label whose trial
             * was re-recorded since is stale, shown but not compared. Hand-written labels may leave it out.
             */
            cassette: z.string().regex(CONTENT_HASH).optional(),
          })
          .strict(),
      )
      .min(1),
  })
  .strict();
export type HumanLabels = z.infer<typeof HumanLabelsSchema> & { file: string };

/** Read a human-labels file: missing, empty, not JSON or not the shape above is a TaskInputError. */
export function readHumanLabels(file: string, judge: string, projectDir: string): HumanLabels {
  const { text, shown } = readTaskFile(file, `judge '${judge}': the human-labels`, projectDir);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new TaskInputError(
      `judge '${judge}': human-labels file ${shown} is not JSON (${(error as Error).message})`,
    );
  }
  const parsed = HumanLabelsSchema.safeParse(data);
  if (!parsed.success) {
    throw new TaskInputError(
      `judge '${judge}': human-labels file ${shown}: ${describeZodIssues(parsed.error.issues)}`,
    );
  }
  if (parsed.data.judge !== undefined && parsed.data.judge !== judge) {
    throw new TaskInputError(
      `judge '${judge}': human-labels file ${shown} is for judge '${parsed.data.judge}'`,
    );
  }
  const seen = new Set<string>();
  for (const { variant, trial } of parsed.data.labels) {
    const key = `${variant} trial ${trial}`;
    if (seen.has(key)) {
      throw new TaskInputError(`judge '${judge}': human-labels file ${shown} labels ${key} twice`);
    }
    seen.add(key);
  }
  return { ...parsed.data, file: shown };
}

/**
 * The labels must name trials that exist: a variant of the task, and (when `recorded` is
 * checked, i.e. not while recording) a trial whose cassette is committed. A label for
 * anything else could never be compared, and would make calibration look better informed than it is.
 */
export function checkLabelledTrials(
  labels: HumanLabels,
  options: {
    judge: string;
    task: string;
    variants: readonly string[];
    fixturesDir: string;
    recorded: boolean;
  },
): void {
  for (const { variant, trial } of labels.labels) {
    const where = `judge '${options.judge}' of task ${options.task}: human-labels file ${labels.file} labels ${variant} trial ${trial}`;
    if (!options.variants.includes(variant)) {
      throw new TaskInputError(
        `${where}, but the task has no variant '${variant}' (its variants: ${options.variants.join(', ')})`,
      );
    }
    const file = cassettePath(options.fixturesDir, options.task, variant, trial);
    if (options.recorded && !existsSync(file)) {
      throw new TaskInputError(
        `${where}, which was never recorded (no fixtures/${options.task}/${variant}/trial-${trial}.json): remove the label or record the trial`,
      );
    }
  }
}

/** One entry of a human-labels file. */
export type HumanLabel = HumanLabels['labels'][number];

/**
 * Whether a label still describes its trial: `current` when it names the cassette the trial
 * replays now, `stale` when it names another (the trial was re-recorded), `unkeyed` when it
 * names none (hand-written; applied by variant and trial, as before labels were keyed).
 */
export function labelStanding(
  entry: Pick<HumanLabel, 'cassette'>,
  cassetteHash: string | undefined,
): 'current' | 'stale' | 'unkeyed' {
  if (entry.cassette === undefined) return 'unkeyed';
  return entry.cassette === cassetteHash ? 'current' : 'stale';
}

/**
 * The human label of one trial, if the file has one that still describes it. Given the
 * trial's cassette hash, a label keyed to another cassette is stale and left out.
 */
export function humanLabelOf(
  labels: Pick<HumanLabels, 'labels'> | undefined,
  variant: string,
  trial: number,
  cassetteHash?: string,
): 'pass' | 'fail' | undefined {
  const entry = labels?.labels.find((label) => label.variant === variant && label.trial === trial);
  if (entry === undefined) return undefined;
  if (cassetteHash !== undefined && labelStanding(entry, cassetteHash) === 'stale')
    return undefined;
  return entry.label;
}

/**
 * The trial's judgments with a human label dropped where the judge's labels file keys it to
 * another cassette than the one the trial ran on (it was re-recorded since): a stale label
 * describes an answer this trial no longer gives, so calibration must not compare it.
 */
export function withoutStaleLabels(
  judgments: readonly JudgmentRecord[],
  judges: ReadonlyArray<{ name: string; humanLabels?: Pick<HumanLabels, 'labels'> | undefined }>,
  trial: { variant: string; trial: number; cassetteHash?: string | undefined },
): JudgmentRecord[] {
  return judgments.map((judgment) => {
    if (judgment.human === undefined || trial.cassetteHash === undefined) return judgment;
    const labels = judges.find((judge) => judge.name === judgment.check)?.humanLabels;
    if (humanLabelOf(labels, trial.variant, trial.trial, trial.cassetteHash) !== undefined) {
      return judgment;
    }
    const { human: _stale, ...rest } = judgment;
    return rest;
  });
}
