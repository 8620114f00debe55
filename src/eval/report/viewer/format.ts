/** How the viewer writes numbers: as the markdown report does, a dash for none. */
export const NONE = '\u2014';

type Figure = number | null | undefined;

export function rate(value: Figure): string {
  return value === null || value === undefined ? NONE : value.toFixed(2);
}
export function amount(value: Figure): string {
  return value === null || value === undefined ? NONE : Math.round(value).toLocaleString('en-US');
}
export function mean(value: Figure): string {
  return value === null || value === undefined ? NONE : value.toFixed(1);
}
/** The values in first-seen order, each once. */
export function unique<T>(values: readonly T[]): T[] {
  return values.filter((value, at) => values.indexOf(value) === at);
}
