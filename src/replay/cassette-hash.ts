import { createHash } from 'node:crypto';
import { canonicalJson } from '../core/canonical-json.js';
import type { Cassette } from './cassette.js';

/** `sha256:` and 64 hex digits: how a content hash is written. */
export const CONTENT_HASH = /^sha256:[0-9a-f]{64}$/;

/** The hashes of cassettes as readCassette read them (read once, used by every report row). */
const readHashes = new WeakMap<Cassette, string>();

/**
 * The cassette's content hash: sha256 of its canonical JSON (version, meta and exchanges, keys
 * sorted at every depth, no whitespace), so the same content has the same hash however the file
 * is indented or its keys ordered. Recording writes it into the file (`contentHash`), every read
 * checks it, and reports carry it per trial: two trials with the same hash replay the same
 * responses, so any difference in their verdicts is deterministic, not noise.
 */
export function cassetteHash(cassette: Cassette): string {
  const read = readHashes.get(cassette);
  if (read !== undefined) return read;
  const { version, meta, exchanges } = cassette;
  return contentHashOf({ version, meta, exchanges });
}

/** `sha256:` and the hash of `content`'s canonical JSON: what every kind of cassette is sealed with. */
export function contentHashOf(content: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(content)).digest('hex')}`;
}

/** Remember the hash of a cassette just read and checked (it is not changed after). */
export function rememberReadHash(cassette: Cassette, hash: string): void {
  readHashes.set(cassette, hash);
}
