import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors.js';
import { parseShard, shardOfTrial } from './shard.js';

describe('parseShard', () => {
  it('reads i/n', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, count: 1 });
  });

  it.each(['0/2', '3/2', '2', 'a/b', '1/0', '1/65'])('refuses %s, naming the form', (text) => {
    expect(() => parseShard(text)).toThrow(ConfigError);
    expect(() => parseShard(text)).toThrow(/--shard takes i\/n/);
  });
});

describe('shardOfTrial', () => {
  // Ten tasks of 2 variants x 3 trials, like the repository's own suites.
  const tasks = ['T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'D1', 'D2', 'D3', 'D3a'];

  it('puts every trial in exactly one shard, the same one every time', () => {
    for (const task of tasks) {
      for (let position = 0; position < 6; position++) {
        const shard = shardOfTrial(task, position, 4);
        expect(shard).toBeGreaterThanOrEqual(1);
        expect(shard).toBeLessThanOrEqual(4);
        expect(shardOfTrial(task, position, 4)).toBe(shard);
      }
    }
  });

  it('balances by trial: each task within one trial across shards, totals close', () => {
    const totals = [0, 0, 0, 0];
    for (const task of tasks) {
      const perShard = [0, 0, 0, 0];
      for (let position = 0; position < 6; position++)
        perShard[shardOfTrial(task, position, 4) - 1]! += 1;
      expect(Math.max(...perShard) - Math.min(...perShard)).toBeLessThanOrEqual(1);
      perShard.forEach((count, index) => {
        totals[index]! += count;
      });
    }
    expect(totals.reduce((sum, count) => sum + count, 0)).toBe(60);
    // 60 trials over 4 shards: 15 each when perfectly even; the hashed starts keep it near.
    expect(Math.max(...totals) - Math.min(...totals)).toBeLessThanOrEqual(4);
  });
});
