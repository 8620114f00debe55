import { describe, expect, it } from 'vitest';
import { createReplayCursor, listExchanges } from './replay-cursor.js';
import { testCassette, textExchange } from './testing/cassettes.js';

describe('listExchanges', () => {
  it('names a few indices, then how many more', () => {
    expect(listExchanges([1])).toBe('exchanges[1]');
    expect(listExchanges([1, 2, 3])).toBe('exchanges[1], exchanges[2], exchanges[3]');
    expect(listExchanges([1, 2, 3, 4])).toBe(
      'exchanges[1], exchanges[2], exchanges[3] ... and 1 more',
    );
  });
});

describe('createReplayCursor: leftover exchanges', () => {
  it('keeps the message short for a cassette with 10,000 exchanges of which 3 were played', () => {
    const exchanges = Array.from({ length: 10_000 }, () => textExchange('again?', 'yes'));
    const cursor = createReplayCursor({
      cassette: testCassette(exchanges),
      matching: 'strict',
      normalisers: [],
      file: 'fixtures/T1/upgraded/trial-2.json',
      label: { task: 'T1', variant: 'upgraded', trial: 2 },
      rerecordCommand: 'npm run record -- --task T1 --variant upgraded --trial 2',
    });
    for (let step = 0; step < 3; step += 1) {
      expect(cursor.take(exchanges[0]!.request)).toHaveProperty('exchange');
    }
    const message = cursor.finish()?.message ?? '';
    expect(message).toContain(
      'exchanges[3], exchanges[4], exchanges[5] ... and 9,994 more never requested (served 3 of 10000;',
    );
    expect(message.length).toBeLessThan(1000);
  });
});
