import { ConfigError } from '../../core/errors.js';

/** One slice of an eval run: `index` of `count`, both from 1 (`--shard 2/4`). */
export interface Shard {
  index: number;
  count: number;
}

/**
 * Parse `--shard i/n` (1 <= i <= n <= 64).
 *
 * @throws ConfigError naming the flag and the expected form.
 */
export function parseShard(text: string, flag = '--shard'): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const [index, count] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (!match || count < 1 || count > 64 || index < 1 || index > count) {
    throw new ConfigError(
      `${flag} takes i/n with 1 <= i <= n <= 64 (e.g. ${flag} 2/4), got '${text}'`,
    );
  }
  return { index, count };
}

export function formatShard(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}

/** 32-bit FNV-1a of the task's name: where its round-robin starts, so remainders spread. */
function startOf(key: string, count: number): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index++) {
    hash ^= key.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % count;
}

/**
 * Which shard (1..count) runs the trial at `position` (0-based, over the task's selected
 * variant x trial pairs in declaration order). Trials, not files, are dealt round-robin, so
 * every shard gets the same number of trials of each task, give or take one; each task starts
 * at a shard chosen from its name, so those remainders do not all land on shard 1.
 * Deterministic: the same selection always gives the same slices.
 *
 * @example shardOfTrial('refund-desk/T1', 4, 2) // 1..2
 */
export function shardOfTrial(taskKey: string, position: number, count: number): number {
  return ((startOf(taskKey, count) + position) % count) + 1;
}
