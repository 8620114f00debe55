import { mulberry32 } from '../core/mulberry32.js';

export { mulberry32 };

/** 32-bit FNV-1a: a stable, dependency-free hash for seeds and ids. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Named draws for one response. Every draw is a pure function of
 * (seed, assistant turns so far, draw name), so asking in a different order,
 * or adding a new draw, never shifts the others.
 */
export interface Rng {
  /** A float in [0, 1). */
  uniform(name: string): number;
  /** True with probability `probability`. */
  chance(name: string, probability: number): boolean;
  pick<T>(name: string, items: readonly [T, ...T[]]): T;
  /** An integer in [min, max], inclusive. */
  between(name: string, min: number, max: number): number;
}

export function createRng(seed: string, turn: number): Rng {
  const uniform = (name: string) => mulberry32(fnv1a(`${seed}#${turn}#${name}`))();
  return {
    uniform,
    chance: (name, probability) => uniform(name) < probability,
    pick: (name, items) => items[Math.floor(uniform(name) * items.length)] ?? items[0],
    between: (name, min, max) => min + Math.floor(uniform(name) * (max - min + 1)),
  };
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A deterministic id in the API's style, e.g. `msg_01` + 22 base62 characters. */
export function makeId(prefix: string, key: string, length = 22): string {
  const next = mulberry32(fnv1a(key));
  let id = '';
  for (let index = 0; index < length; index++) {
    id += BASE62[Math.floor(next() * BASE62.length)];
  }
  return `${prefix}${id}`;
}
