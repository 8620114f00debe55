import { createHash } from 'node:crypto';
import type { Cassette } from './cassette.js';
import { serializeCassette, textReadFrom } from './cassette-file.js';

/**
 * sha256 (hex) of the cassette's bytes: the file it was read from, or for a cassette held in
 * memory its canonical serialisation, which is what `writeCassette` writes. Two trials with
 * the same hash replay the same responses, so any difference in their verdicts is
 * deterministic, not noise.
 */
export function cassetteHash(cassette: Cassette): string {
  return createHash('sha256')
    .update(textReadFrom(cassette) ?? serializeCassette(cassette))
    .digest('hex');
}
