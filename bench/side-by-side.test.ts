import { describe, expect, it } from 'vitest';
import { sideBySideRows } from './side-by-side.js';
import type { BuildRuns } from './target-runs.js';
import { processRun as run } from './testing/process-runs.js';

const extra = 599; // REPLAY_TRIALS - 1: what a 600-trial run adds over a 1-trial run
/** A pair whose N-trial run costs `wall` and `cpu` ms per extra trial over its 1-trial run. */
const perTrial = (wall: number, cpu: number) => ({
  one: run(1000, 1000),
  many: run(1000 + wall * extra, 1000 + cpu * extra),
});

// Round 1: this build costs half the baseline's; round 2: 0.8 of it. Start-up 1100 vs 1500 ms
// against empty runs of 1000 and 800 ms.
const current: BuildRuns = {
  startup: [run(1100), run(1100)],
  replay: [perTrial(1, 2), perTrial(1.6, 2.4)],
  loops: [perTrial(0.5, 0.6), perTrial(0.5, 0.9)],
};
const baseline: BuildRuns = {
  startup: [run(1500), run(1500)],
  replay: [perTrial(2, 4), perTrial(2, 3)],
  loops: [perTrial(1, 1.2), perTrial(1, 1)],
};
const rows = sideBySideRows({ empty: [run(1000), run(800)], current, baseline });
const row = (figure: string) => rows.find((candidate) => candidate.figure === figure);

describe('sideBySideRows', () => {
  it("gives each build's median per-trial figure, and this build over the baseline per round", () => {
    expect(row('replayed refund trial, wall per trial')).toMatchObject({
      current: '1.30 ms',
      baseline: '2.00 ms',
      ratio: '0.65x (0.50-0.80)',
      target: '≥ 40 % less than the baseline (≤ 0.60x)',
    });
    expect(row('replayed refund trial, CPU per trial')).toMatchObject({
      current: '2.20 ms',
      baseline: '3.50 ms',
      ratio: '0.65x (0.50-0.80)',
    });
  });

  it('prints the trials without vitest with the 50 % target', () => {
    expect(row('the same trials without vitest, wall per trial')).toMatchObject({
      current: '0.50 ms',
      baseline: '1.00 ms',
      ratio: '0.50x (0.50-0.50)',
      target: '≥ 50 % less than the baseline (≤ 0.50x)',
    });
    expect(row('the same trials without vitest, CPU per trial')?.ratio).toBe('0.70x (0.50-0.90)');
  });

  it('divides start-up by the empty vitest run of the same round', () => {
    expect(row('start-up, wall')).toMatchObject({
      current: '1100 ms',
      baseline: '1500 ms',
      ratio: '0.73x (0.73-0.73)',
    });
    expect(row('start-up ÷ empty vitest run (same round)')).toMatchObject({
      current: '1.24x',
      baseline: '1.69x',
      target: '≤ 1.3x an empty vitest run (this build)',
    });
  });

  it('leaves the range out after one round', () => {
    const one = (runs: BuildRuns): BuildRuns => ({
      startup: runs.startup.slice(0, 1),
      replay: runs.replay.slice(0, 1),
      loops: runs.loops.slice(0, 1),
    });
    const single = sideBySideRows({
      empty: [run(1000)],
      current: one(current),
      baseline: one(baseline),
    });
    expect(single[0]?.ratio).toBe('0.50x');
  });
});
