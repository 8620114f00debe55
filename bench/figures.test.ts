import { describe, expect, it } from 'vitest';
import { allCpuMs, median, ms, perTrial } from './figures.js';
import { processRun } from './testing/process-runs.js';

const run = processRun;

describe('figures', () => {
  it('takes the middle value, or the mean of the two middle values', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('divides what the N-trial run adds over the 1-trial run by the extra trials, per round', () => {
    const pairs = [
      { one: run(3000, 4000), many: run(3000 + 599 * 6, 4000 + 599 * 2) },
      { one: run(2000, 3000), many: run(2000 + 599, 3000 + 599 * 3) },
    ];
    expect(perTrial(pairs, 599, 'wallMs')).toEqual([6, 1]);
    expect(perTrial(pairs, 599, 'cpuMs')).toEqual([2, 3]);
  });

  it('counts the CPU of the fork workers a runner waited for when asked', () => {
    const pairs = [{ one: run(1000, 500, 400), many: run(1100, 510, 490) }];
    expect(perTrial(pairs, 10, 'cpuMs')).toEqual([1]);
    expect(perTrial(pairs, 10, allCpuMs)).toEqual([10]);
  });

  it('prints milliseconds below 10 s and seconds above', () => {
    expect(ms(4.271)).toBe('4.27 ms');
    expect(ms(1209.4)).toBe('1209 ms');
    expect(ms(21_700)).toBe('21.7 s');
  });
});
