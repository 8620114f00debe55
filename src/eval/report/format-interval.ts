import type { Interval } from '../stats/interval.js';
import { formatDelta, formatRate, NONE } from './format.js';

/** "[0.21, 0.94]"; the ends of a difference are signed: "[−0.06, +0.94]". */
export function formatInterval(interval: Interval | null | undefined, signed = false): string {
  if (!interval) return '';
  const end = signed ? formatDelta : formatRate;
  return `[${end(interval.lower)}, ${end(interval.upper)}]`;
}

/** "0.67 [0.21, 0.94]", or the bare rate when it has no interval. */
export function rateWithInterval(
  value: number | null | undefined,
  interval: Interval | null | undefined,
): string {
  if (value === null || value === undefined) return NONE;
  return interval ? `${formatRate(value)} ${formatInterval(interval)}` : formatRate(value);
}

/** Marks a difference whose interval includes 0. */
export const NOT_DISTINGUISHABLE_MARK = '~';
export const NOT_DISTINGUISHABLE_NOTE =
  '~ = not distinguishable at this n (the 95% interval of the difference includes 0)';

/** "+1.00 [+0.21, +1.00]", "+0.33 [−0.29, +0.79] ~" when not distinguishable at this n. */
export function deltaWithInterval(delta: {
  passAt1: number | null;
  passAt1Interval: Interval | null;
  distinguishable: boolean | null;
}): string {
  if (delta.passAt1 === null) return NONE;
  const text =
    `${formatDelta(delta.passAt1)} ${formatInterval(delta.passAt1Interval, true)}`.trim();
  return delta.distinguishable === false ? `${text} ${NOT_DISTINGUISHABLE_MARK}` : text;
}
