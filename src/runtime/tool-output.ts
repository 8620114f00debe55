import { types } from 'node:util';
import { callWithin, DeadlinePassedError } from '../core/bounded-call.js';
import { errorMessage } from '../core/errors.js';
import { valueKind } from '../core/value-kind.js';
/**
 * Turning what a tool returned or threw into text for the model. A tool is untrusted code:
 * neither a value JSON cannot carry nor an odd thrown value may crash the run.
 */

export type ResultText = { ok: true; text: string } | { ok: false; reason: string };

/**
 * The text the model is sent for a tool's return value, or why it cannot be sent. Text goes
 * as it is, nothing as `(no output)`, and any other value as its JSON, exactly as
 * JSON.stringify writes it (toJSON applied, undefined properties left out), provided the JSON
 * says what the value holds. It does not for a BigInt, a Symbol, a function or a circular
 * reference (JSON throws, or drops them without a word), NaN or ±Infinity (sent as null), an
 * invalid Date (null), nor for objects whose contents JSON cannot see: a Map, a Set, a RegExp,
 * an Error, a Promise, a typed array... (all sent as `{}` or a bag of indices). Those fail the
 * call closed with a reason naming the value and where it is, as does a toJSON or a getter
 * that throws.
 */
export function resultText(value: unknown, options: { deadlineMs?: number } = {}): ResultText {
  if (typeof value === 'string') return { ok: true, text: value };
  if (value === undefined) return { ok: true, text: '(no output)' };
  let problem: string;
  try {
    // A getter, toJSON or Proxy trap that never returns would hold the whole run: a value in
    // which any of those can run is read under a deadline (about 0.3 ms a call); plain data,
    // the usual result, is read as it is.
    const read = () => plainJson(value, '', '', new Set());
    const plain = runsNoCode(value, 0)
      ? read()
      : callWithin(read, options.deadlineMs ?? RESULT_READ_DEADLINE_MS);
    if (plain !== undefined) return { ok: true, text: JSON.stringify(plain) };
    problem = `${valueKind(value)} whose toJSON returned nothing`;
  } catch (error) {
    problem =
      error instanceof Unsendable
        ? error.problem
        : error instanceof DeadlinePassedError
          ? `reading it ${error.message} (does a getter, toJSON or Proxy in it loop forever?)`
          : `reading it threw: ${errorMessage(error)}`;
  }
  return {
    ok: false,
    reason: `its result cannot be sent as JSON (${problem}); a tool must return a plain object or array (or text), so this one is broken: do not retry it, tell the user what you could not look up`,
  };
}

/** How long reading a tool's result may take: plain data takes milliseconds. */
export const RESULT_READ_DEADLINE_MS = 5_000;

/**
 * True when reading `value` as JSON runs none of the tool's code: plain objects and arrays
 * (no Proxy, no getter, no toJSON), text, numbers, booleans and null, not too deep. Checked
 * without reading a property through a getter or touching a Proxy.
 */
function runsNoCode(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return typeof value !== 'function';
  if (depth > 64 || types.isProxy(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  const array = Array.isArray(value);
  if (prototype !== (array ? Array.prototype : Object.prototype) && prototype !== null) {
    return false;
  }
  for (const key of Reflect.ownKeys(value)) {
    if (key === 'toJSON') return false;
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (!descriptor || !('value' in descriptor)) return false;
    if (!runsNoCode(descriptor.value, depth + 1)) return false;
  }
  return true;
}

/** Why a value cannot be sent, thrown from deep inside it. */
class Unsendable {
  constructor(readonly problem: string) {}
}

/**
 * A copy of `value` made of plain objects, arrays, text, finite numbers, booleans and null,
 * built the way JSON.stringify walks a value (toJSON called with the key, boxed primitives
 * unwrapped, own enumerable keys in order), so its JSON is the value's JSON byte for byte.
 * Undefined for what JSON leaves out (an undefined property).
 */
function plainJson(value: unknown, key: string, at: string, ancestors: Set<object>): unknown {
  const where = at === '' ? 'at the top level' : `at ${at}`;
  let current = value;
  if ((typeof current === 'object' && current !== null) || typeof current === 'bigint') {
    const toJSON = read(() => (current as { toJSON?: unknown }).toJSON, at);
    if (typeof toJSON === 'function') {
      try {
        current = toJSON.call(current, key);
      } catch (error) {
        throw new Unsendable(
          `the toJSON of ${valueKind(value)} ${where} threw: ${errorMessage(error)}`,
        );
      }
      if (current === null && types.isDate(value)) throw new Unsendable(`an invalid Date ${where}`);
    }
  }
  switch (typeof current) {
    case 'string':
    case 'boolean':
    case 'undefined':
      return current;
    case 'number':
      if (Number.isFinite(current)) return current;
      throw new Unsendable(`${current} ${where}`);
    case 'bigint':
      throw new Unsendable(`a BigInt ${where}`);
    case 'symbol':
      throw new Unsendable(`a Symbol ${where}`);
    case 'function':
      throw new Unsendable(`a function ${where}`);
  }
  if (current === null) return null;
  const object = current as object;
  if (types.isNumberObject(object)) return plainJson(Number(object), key, at, ancestors);
  if (types.isStringObject(object)) return String(object);
  if (types.isBooleanObject(object)) return object.valueOf();
  if (types.isBigIntObject(object)) throw new Unsendable(`a BigInt ${where}`);
  if (types.isSymbolObject(object)) throw new Unsendable(`a Symbol ${where}`);
  if (hidesItsContents(object)) throw new Unsendable(`${valueKind(object)} ${where}`);
  if (ancestors.has(object)) throw new Unsendable(`a circular reference ${where}`);
  ancestors.add(object);
  const list = Array.isArray(object);
  const fields = object as Record<string, unknown>;
  const names = list
    ? Array.from({ length: read(() => object.length, at) }, (_, index) => String(index))
    : read(() => Object.keys(object), at);
  const items: unknown[] = [];
  // No prototype: a key such as `__proto__` stays an own property, as it was.
  const copy: Record<string, unknown> = Object.create(null);
  for (const name of names) {
    const path = `${at}/${name}`;
    const value = read(() => fields[name], path);
    const item = plainJson(value, name, path, ancestors);
    if (list) items.push(item === undefined ? null : item);
    else if (item !== undefined) copy[name] = item;
  }
  ancestors.delete(object);
  return list ? items : copy;
}

/** Built-ins whose contents live where JSON does not look: JSON sends them as `{}` (or indices). */
function hidesItsContents(object: object): boolean {
  return (
    types.isMap(object) ||
    types.isSet(object) ||
    types.isWeakMap(object) ||
    types.isWeakSet(object) ||
    types.isMapIterator(object) ||
    types.isSetIterator(object) ||
    types.isGeneratorObject(object) ||
    types.isPromise(object) ||
    types.isRegExp(object) ||
    types.isNativeError(object) ||
    types.isAnyArrayBuffer(object) ||
    types.isArrayBufferView(object)
  );
}

/** A getter, a Proxy trap or a key listing that throws becomes a reason, with where it was read. */
function read<T>(get: () => T, at: string): T {
  try {
    return get();
  } catch (error) {
    throw new Unsendable(`reading ${at === '' ? 'it' : at} threw: ${errorMessage(error)}`);
  }
}
