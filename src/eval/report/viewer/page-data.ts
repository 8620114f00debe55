import type { htmlTrialData } from '../html-data.js';
import type { htmlModel } from '../html-model.js';
import { unique } from './format.js';

/**
 * What the page holds, as the renderer (html.ts) writes it: the types are the renderer's own,
 * so a field it renames or drops fails the viewer's type-check.
 */
type TrialData = ReturnType<typeof htmlTrialData>;

/** What the trial list and the distribution plots know of a trial before it is opened. */
export type TrialEntry = TrialData['index'][number];

/** A trial's details, parsed when it is opened: its record, transcript (texts packed) and trace. */
export type TrialDetail = TrialData['details'][number];

/** The scores, the header and the trial index: parsed at once. */
export type PageModel = ReturnType<typeof htmlModel> & { trials: TrialEntry[] };

export type ScoreRow = PageModel['rows'][number];

function jsonOf<T>(id: string): T {
  return JSON.parse(document.getElementById(id)?.textContent ?? 'null') as T;
}

export const model = jsonOf<PageModel>('report-model');
export const trials = model.trials;

/** A trial as the page names it: task, variant, case and number. */
export function label(trial: TrialEntry): string {
  return `${trial.task} ${trial.variant}${trial.case ? ` case ${trial.case}` : ''} trial ${trial.trial}`;
}

/** A trial's address in the URL hash: its suite, task, variant and number, each URI-encoded. */
export function keyOf(trial: TrialEntry): string {
  return [
    trial.suite,
    trial.task,
    trial.variant,
    ...(trial.case ? [trial.case] : []),
    String(trial.trial),
  ]
    .map(encodeURIComponent)
    .join('/');
}
export const byKey = new Map(trials.map((trial, at) => [keyOf(trial), at]));

// Each trial's details are parsed when it is opened; a few stay parsed for going back and forth.
const parsed = new Map<number, TrialDetail>();
const PARSED_KEPT = 32;

/** The trial's details, or null while the parser has not reached them yet. */
export function detailOf(at: number): TrialDetail | null {
  const kept = parsed.get(at);
  if (kept) return kept;
  if (!document.getElementById(`trial-${at}`)) return null;
  const value = jsonOf<TrialDetail>(`trial-${at}`);
  parsed.set(at, value);
  if (parsed.size > PARSED_KEPT) parsed.delete(parsed.keys().next().value!);
  return value;
}

let sharedTexts: string[] | null = null;
/** A text of a transcript: itself, or (a number) the shared text it stands for. */
export function textOf(value: string | number): string {
  if (typeof value !== 'number') return value;
  sharedTexts ??= jsonOf<string[]>('report-texts');
  return sharedTexts[value] ?? '';
}

/** The order variants take everywhere (colours, rows): as in the scores. */
export const variants = unique(model.rows.map((row) => row.variant));
export function variantClass(variant: string): string {
  return `v${variants.indexOf(variant) % 6}`;
}
