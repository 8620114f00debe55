/**
 * mulberry32: a small seeded PRNG with floats in [0, 1). The same seed gives the same
 * sequence on every machine, so bootstrap intervals do not flicker between runs.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed the reports use. */
export const BOOTSTRAP_SEED = 20261202;
export const BOOTSTRAP_RESAMPLES = 2000;
