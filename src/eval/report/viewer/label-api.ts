import type { LabelRequest } from '../label-request.js';
import type { LabelItem, LabelState } from '../label-state.js';

export type { LabelItem, LabelState };

/**
 * Where the labelling API is: the content of the meta element `view --label` adds to the page
 * it serves; null in a report opened any other way (its policy allows no network at all).
 */
export const labelApi: string | null =
  document.querySelector('meta[name="harness-label"]')?.getAttribute('content') ?? null;

/** What the person has set on the current item, before and after it is saved. */
export interface Pending {
  label?: 'pass' | 'fail';
  score?: number;
  note?: string;
}

async function call(api: string, init?: RequestInit): Promise<LabelState> {
  const response = await fetch(api, { cache: 'no-store', ...init });
  const body = (await response.json().catch(() => ({}))) as LabelState & { error?: string };
  if (!response.ok) throw new Error(body.error ?? `${api}: HTTP ${response.status}`);
  return body;
}

export function loadLabels(api: string): Promise<LabelState> {
  return call(api);
}

/** Save one label; the answer is the state with the calibration recomputed. */
export function saveLabel(api: string, item: LabelItem, pending: Pending): Promise<LabelState> {
  const request: LabelRequest = {
    suite: item.suite,
    task: item.task,
    variant: item.variant,
    trial: item.trial,
    check: item.check,
    cassette: item.cassette,
    label: pending.label!,
    ...(pending.score !== undefined && { score: pending.score }),
    ...(pending.note !== undefined && { note: pending.note }),
  };
  return call(api, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
}

/** What an item's inputs start from: its label, unless that describes an older cassette. */
export function pendingOf(item: LabelItem): Pending {
  const human = item.human;
  if (!human || human.standing === 'stale') return {};
  return {
    label: human.label,
    ...(human.score !== undefined && { score: human.score }),
    ...(human.note !== undefined && { note: human.note }),
  };
}
