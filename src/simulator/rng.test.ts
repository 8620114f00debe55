import { describe, expect, it } from 'vitest';
import { createRng, fnv1a, makeId, mulberry32 } from './rng.js';

describe('fnv1a', () => {
  it('matches the published 32-bit FNV-1a vectors', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
  });
});

describe('mulberry32', () => {
  it('repeats its sequence for the same seed and stays in [0, 1)', () => {
    const first = mulberry32(42);
    const second = mulberry32(42);
    const values = Array.from({ length: 50 }, () => first());
    expect(values).toEqual(Array.from({ length: 50 }, () => second()));
    expect(values.every((value) => value >= 0 && value < 1)).toBe(true);
    expect(new Set(values).size).toBe(50);
  });
});

describe('createRng', () => {
  it('gives each named draw the same value whatever was drawn before', () => {
    const plain = createRng('T1/upgraded/1', 2);
    const busy = createRng('T1/upgraded/1', 2);
    busy.uniform('something else');
    busy.chance('parallel', 0.5);
    expect(busy.uniform('retry')).toBe(plain.uniform('retry'));
  });

  it('changes its draws with the seed and with the turn', () => {
    const base = createRng('T1/upgraded/1', 0).uniform('x');
    expect(createRng('T1/upgraded/2', 0).uniform('x')).not.toBe(base);
    expect(createRng('T1/upgraded/1', 1).uniform('x')).not.toBe(base);
  });

  it('draws chance() at roughly its probability', () => {
    const hits = Array.from({ length: 1000 }, (_, trial) =>
      createRng(`seed-${trial}`, 0).chance('habit', 0.35),
    ).filter(Boolean).length;
    expect(hits).toBeGreaterThan(300);
    expect(hits).toBeLessThan(400);
  });

  it('keeps between() inside its inclusive bounds', () => {
    const values = Array.from({ length: 200 }, (_, trial) =>
      createRng(`s${trial}`, 0).between('delay', 5, 9),
    );
    expect(Math.min(...values)).toBe(5);
    expect(Math.max(...values)).toBe(9);
  });
});

describe('makeId', () => {
  it('builds stable API-style ids', () => {
    const id = makeId('msg_01', 'key');
    expect(id).toMatch(/^msg_01[0-9A-Za-z]{22}$/);
    expect(makeId('msg_01', 'key')).toBe(id);
    expect(makeId('msg_01', 'other')).not.toBe(id);
  });
});
