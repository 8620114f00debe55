/**
 * What a value is, for an error message, never its content (a string may be a page that
 * echoes a key): `null`, `an array`, `a string`, `an object`, `a number`, ..., an instance by
 * its class (`a Map`, `a Promise`, `an Invoice`), and `absent` (default `nothing`) for
 * undefined.
 */
export function valueKind(value: unknown, absent = 'nothing'): string {
  if (value === null) return 'null';
  if (value === undefined) return absent;
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  const name = type === 'object' ? className(value as object) : undefined;
  return withArticle(name ?? type);
}

function withArticle(noun: string): string {
  return `${/^[aeio]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

/** The class of an instance; undefined for a plain object, or a class with no usable name. */
function className(object: object): string | undefined {
  try {
    const prototype: unknown = Object.getPrototypeOf(object);
    if (prototype === null || prototype === Object.prototype) return undefined;
    const name: unknown = (prototype as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === 'string' && name !== 'Object' && /^[A-Za-z_$][\w$]{0,60}$/.test(name)
      ? name
      : undefined;
  } catch {
    // A Proxy's getPrototypeOf trap, or a constructor getter, that throws.
    return undefined;
  }
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
