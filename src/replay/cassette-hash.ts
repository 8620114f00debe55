import { createHash } from 'node:crypto';
import type { Cassette } from './cassette.js';
import { serializeCassette } from './cassette-file.js';

/**
 * sha256 (hex) of the cassette's canonical bytes. Two trials with the same hash replay the
 * same responses, so any difference in their verdicts is deterministic, not noise.
 */
export function cassetteHash(cassette: Cassette): string {
  return createHash('sha256').update(serializeCassette(cassette)).digest('hex');
}
