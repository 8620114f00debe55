import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';

const read = (text: string) => canonicalJson(JSON.parse(text));

describe('canonicalJson', () => {
  it('keeps a "__proto__" key JSON.parse read as an own key, so the content hashes differently', () => {
    // The break: out["__proto__"] = ... set the prototype, and JSON.stringify dropped the key.
    expect(read('{"a":1,"__proto__":{"b":2}}')).toBe('{"__proto__":{"b":2},"a":1}');
    expect(read('{"a":1,"__proto__":{"b":2}}')).not.toBe(read('{"a":1}'));
    expect(read('{"__proto__":null}')).toBe('{"__proto__":null}');
  });

  it('keeps other special keys and tells apart keys that differ only in Unicode normalisation', () => {
    for (const key of [
      'constructor',
      'prototype',
      'toString',
      'hasOwnProperty',
      '__defineGetter__',
    ]) {
      expect(read(`{"${key}":1}`)).toBe(`{"${key}":1}`);
    }
    expect(read('{"caf\\u00e9":1}')).not.toBe(read('{"cafe\\u0301":1}'));
    expect(read('["\\ud800"]')).not.toBe(read('["\\ud801"]'));
  });

  it('sorts keys at every depth and leaves arrays in order', () => {
    expect(read('{"b":[{"d":1,"c":2}],"a":null}')).toBe('{"a":null,"b":[{"c":2,"d":1}]}');
  });
});
