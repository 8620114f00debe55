import { z } from 'zod';
import { CONTENT_HASH } from '../../replay/cassette-hash.js';
import type { HumanLabel, HumanLabels } from '../spec/human-labels.js';
import type { LabelItem, LabelState } from './label-state.js';

/** The longest note a label keeps: a sentence or a short paragraph, not a transcript. */
export const MAX_NOTE = 2000;

const NAME = z.string().min(1).max(200);

/** What the labelling view posts: one human label of one judged check of one trial. */
export const LabelRequestSchema = z
  .object({
    suite: NAME,
    task: NAME,
    variant: NAME,
    trial: z.number().int().min(1),
    check: NAME,
    /** The cassette the person read: must be the one the trial replays now. */
    cassette: z.string().regex(CONTENT_HASH, 'a content hash, sha256: and 64 hex digits'),
    label: z.enum(['pass', 'fail']),
    score: z.number().min(0).max(1).optional(),
    note: z.string().max(MAX_NOTE, `at most ${MAX_NOTE} characters`).optional(),
  })
  .strict();
export type LabelRequest = z.infer<typeof LabelRequestSchema>;

/** Why a label was refused: an HTTP status and one line naming the thing and the fix. */
export interface LabelRefusal {
  status: number;
  error: string;
}

/** The item a request labels, or why it names none this run has. */
export function itemOf(state: LabelState, request: LabelRequest): LabelItem | LabelRefusal {
  const trial = `${request.task} ${request.variant} trial ${request.trial}`;
  const ofTrial = state.items.filter(
    (item) =>
      item.suite === request.suite &&
      item.task === request.task &&
      item.variant === request.variant &&
      item.trial === request.trial,
  );
  if (ofTrial.length === 0) {
    return { status: 404, error: `${trial}: no judged trial of this run has a human-labels file` };
  }
  const item = ofTrial.find((entry) => entry.check === request.check);
  if (item === undefined) {
    const checks = ofTrial.map((entry) => entry.check).join(', ');
    return {
      status: 400,
      error: `${trial} has no judged check '${request.check}' to label (its checks: ${checks})`,
    };
  }
  if (item.cassette !== request.cassette) {
    return {
      status: 409,
      error: `${trial} replays cassette ${item.cassette.slice(0, 19)}…, not ${request.cassette.slice(0, 19)}…: reload the page and label what it shows`,
    };
  }
  return item;
}

/**
 * The human-labels file with the request's label in place of the trial's old one (or added):
 * the file's other entries and fields stay as they were; a new file names its judge.
 */
export function withLabel(
  current: Omit<HumanLabels, 'file'> | undefined,
  request: LabelRequest,
): Omit<HumanLabels, 'file'> {
  const entry: HumanLabel = {
    variant: request.variant,
    trial: request.trial,
    label: request.label,
    ...(request.score !== undefined && { score: request.score }),
    ...(request.note !== undefined && request.note !== '' && { note: request.note }),
    cassette: request.cassette,
  };
  const labels = [...(current?.labels ?? [])];
  const at = labels.findIndex(
    (label) => label.variant === request.variant && label.trial === request.trial,
  );
  if (at < 0) labels.push(entry);
  else labels[at] = entry;
  return { ...(current ?? { judge: request.check }), labels };
}
