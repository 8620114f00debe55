/**
 * What a value is, for an error message, never its content (a string may be a page that
 * echoes a key): `null`, `an array`, `a string`, `an object`, `a number`, ... and `absent`
 * (default `nothing`) for undefined.
 */
export function valueKind(value: unknown, absent = 'nothing'): string {
  if (value === null) return 'null';
  if (value === undefined) return absent;
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}
