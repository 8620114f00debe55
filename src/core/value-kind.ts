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

/**
 * Short values as they are (numbers, booleans, short lower-case identifiers such as
 * `'eos_token'`), anything else by its kind: enough to see what a server sent, never a text
 * that could echo a key. `absent` (default `missing`) for undefined.
 */
export function valueOrKind(value: unknown, absent = 'missing'): string {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string' && /^[a-z_]{1,40}$/.test(value)) return `'${value}'`;
  return valueKind(value, absent);
}
