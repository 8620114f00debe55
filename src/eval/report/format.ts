import { PROVIDER_DEFAULTS, PROVIDERS, type Provider } from '../../model-api/provider.js';
import type { FixtureSource } from '../../replay/cassette.js';
import { direction, largestK, type RatesByK, rateAt } from './rates.js';

/** Shown for a value that does not exist (n < k, nothing to average). */
export const NONE = '—';

// Intl.NumberFormat only for NaN, Infinity and huge values: creating one loads ICU's number
// data, about 12 ms of every report.
let integer: Intl.NumberFormat | undefined;

/** A rate in [0, 1] with two decimals: 0.70. */
export function formatRate(value: number | null | undefined): string {
  return value === null || value === undefined ? NONE : value.toFixed(2);
}

/** A signed difference of rates: +0.33, −0.33, 0.00. */
export function formatDelta(value: number | null | undefined): string {
  if (value === null || value === undefined) return NONE;
  const rounded = value.toFixed(2);
  if (Number(rounded) === 0) return '0.00';
  return value > 0 ? `+${rounded}` : `−${rounded.slice(1)}`;
}

/** A mean count (steps, tool calls) with one decimal: 3.3. */
export function formatMean(value: number | null | undefined): string {
  return value === null || value === undefined ? NONE : value.toFixed(1);
}

/** Tokens and milliseconds: rounded, with thousands separators: 12,345. */
export function formatAmount(value: number | null | undefined): string {
  if (value === null || value === undefined) return NONE;
  if (!(Math.abs(value) < 1e15)) {
    integer ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
    return integer.format(value);
  }
  // As en-US prints it: halves round away from zero, a comma every three digits, and a
  // negative value that rounds to zero is -0.
  const digits = String(Math.round(Math.abs(value))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return value < 0 || Object.is(value, -0) ? `-${digits}` : digits;
}

/** before -> after with ▲ / ▼ when it moved. */
export function formatChange(before: number | null, after: number | null): string {
  const text = `${formatRate(before)} → ${formatRate(after)}`;
  const moved = direction(before, after);
  return moved === 0 ? text : `${text} ${moved > 0 ? '▲' : '▼'}`;
}

/** "T1 upgraded trial 2", "T7 upgraded case q3 trial 2". */
export function trialLabel(trial: {
  task: string;
  variant: string;
  trial: number;
  case?: string | undefined;
}): string {
  const testCase = trial.case === undefined ? '' : ` case ${trial.case}`;
  return `${trial.task} ${trial.variant}${testCase} trial ${trial.trial}`;
}

/** "the live Anthropic API", "the live Anthropic and OpenAI APIs", "the live API" (provider unknown). */
function liveApis(providers: readonly Provider[]): string {
  const labels = PROVIDERS.filter((provider) => providers.includes(provider)).map(
    (provider) => PROVIDER_DEFAULTS[provider].label,
  );
  if (labels.length === 0) return 'the live API';
  return `the live ${labels.join(' and ')} API${labels.length > 1 ? 's' : ''}`;
}

/** Where the fixtures came from, spelled so that nobody mistakes one for the other. */
export function describeSources(
  sources: readonly FixtureSource[],
  providers: readonly Provider[] = [],
): {
  label: string;
  note: string;
} {
  const [only] = sources;
  if (sources.length === 0 || only === undefined) {
    return { label: 'unknown', note: 'no trial recorded its fixture source' };
  }
  const notes: Record<FixtureSource, string> = {
    simulator: 'scripted stand-in, not the live API; token counts are estimates',
    live: `recorded from ${liveApis(providers)}`,
  };
  if (sources.length === 1) return { label: only, note: notes[only] };
  return {
    label: sources.join(' + '),
    note: 'mixed: some fixtures are simulator stand-ins, some come from the live API',
  };
}

/** The trials a row did not count, by why: "1 stale", "1 corrupt", "1 holding a credential", "1 judge error". */
export function notCounted(excluded: {
  stale: readonly number[];
  missing: readonly number[];
  errored: readonly number[];
  corrupt?: readonly number[] | undefined;
  secret?: readonly number[] | undefined;
  judgeError?: readonly number[] | undefined;
}): string[] {
  const corrupt = excluded.corrupt?.length ?? 0;
  const secret = excluded.secret?.length ?? 0;
  const counts: Array<[number, string]> = [
    [excluded.stale.length - corrupt - secret, 'stale'],
    [corrupt, 'corrupt'],
    [secret, 'holding a credential'],
    [excluded.missing.length, 'missing'],
    [excluded.errored.length, 'errored'],
  ];
  const notes = counts.filter(([count]) => count > 0).map(([count, what]) => `${count} ${what}`);
  const judgeErrors = excluded.judgeError?.length ?? 0;
  if (judgeErrors > 0) notes.push(`${judgeErrors} judge error${judgeErrors === 1 ? '' : 's'}`);
  return notes;
}

/** c/n with the trials that were not counted: "2/2 (1 stale)". */
export function countedCell(row: {
  passed: number;
  n: number;
  excluded: Parameters<typeof notCounted>[0];
}): string {
  const notes = notCounted(row.excluded);
  return `${row.passed}/${row.n}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`;
}

/** How a stale or missing fixture is named: its problem when it has one ("corrupt", "holds a credential"). */
export function fixtureState(entry: { outcome: string; problem?: string | undefined }): string {
  if (entry.problem === 'secret') return 'holds a credential';
  return entry.problem ?? entry.outcome;
}

/** The rate at k = `wanted`, or at the largest k the row has when it fell short of it. */
export function rateNear(
  rates: RatesByK,
  wanted: number,
): { k: number | undefined; value: number | null } {
  const value = rateAt(rates, wanted);
  if (value !== null) return { k: wanted, value };
  const k = largestK(rates);
  return { k, value: rateAt(rates, k) };
}

/** "0.67", "1.00 (k=2)" when the row fell short of k, "—". */
export function rateCell(rates: RatesByK, wanted: number): string {
  const { k, value } = rateNear(rates, wanted);
  return k === undefined || k === wanted ? formatRate(value) : `${formatRate(value)} (k=${k})`;
}
